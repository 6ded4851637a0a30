import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, readJson, startTestCloud } from '../../testing';

describeOnDatabases('Cloud update changelog', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  const changelog = async (query: Record<string, string> = {}) => {
    const response = await fetch(`${cloud.url}/update/changelog?${new URLSearchParams(query)}`);
    return { status: response.status, body: await readJson(response) };
  };

  it('lists the hub releases newest first, each with its changelog in every language it has', async () => {
    const all = await changelog();
    expect(all.status).toBe(200);
    expect(all.body.map((r: { version: string }) => r.version)).toEqual([
      '12.6.0-alpha.1',
      '12.5.0-rc.1',
      '12.5.0-beta.3',
      '12.4.1',
      '12.4.0',
      '12.3.0',
    ]);
    expect(all.body[3]).toMatchObject({ channel: 'stable', releaseDate: '2026-10-20', size: 184_600_000 });
    expect(Object.keys(all.body[3].changelog).sort()).toEqual(['de', 'en', 'nl']);
  });

  it('answers what a channel sees after a version, with English and the asked language', async () => {
    const beta = await changelog({ channel: 'beta', since: '12.4.0', language: 'nl-BE' });
    expect(beta.body.map((r: { version: string }) => r.version)).toEqual(['12.5.0-rc.1', '12.5.0-beta.3', '12.4.1']);
    expect(Object.keys(beta.body[2].changelog).sort()).toEqual(['en', 'nl']);
    expect((await changelog({ channel: 'stable', since: '12.4.1' })).body).toEqual([]);
  });

  it('refuses a version or channel that is none', async () => {
    const version = await changelog({ since: 'latest' });
    expect(version.status).toBe(400);
    expect(version.body.error_description).toContain('since');
    expect((await changelog({ channel: 'nightly' })).status).toBe(400);
  });
});
