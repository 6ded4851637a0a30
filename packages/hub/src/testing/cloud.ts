import { type Cloud, type CloudConfig, startCloud } from '@hearth/cloud';

/** A real cloud for a hub test: embedded (PGlite in memory), on a free loopback port, silent. */
export function startEmbeddedCloud(overrides: Partial<CloudConfig> = {}): Promise<Cloud> {
  return startCloud({
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://127.0.0.1',
    databaseUrl: null,
    dataDir: 'memory://',
    databaseSchema: 'public',
    logLevel: 'silent',
    smtpUrl: null,
    mailFrom: 'Hearth <no-reply@hearth.test>',
    internalClientSecret: null,
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 86_400,
    region: 'eu',
    demoHubs: null,
    ...overrides,
  });
}
