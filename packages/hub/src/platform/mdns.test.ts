import { Bonjour, type Service } from 'bonjour-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';

let bonjour: Bonjour;
beforeAll(() => {
  bonjour = new Bonjour();
});
afterAll(() => new Promise<void>((resolve) => bonjour.destroy(() => resolve())));

/** Browses `_homey._tcp` until the hub `id` shows up (or goes away, with `event: 'down'`). */
function browseFor(id: string, event: 'up' | 'down' = 'up', timeout = 5000): Promise<Service> {
  return new Promise((resolve, reject) => {
    const browser = bonjour.find({ type: 'homey' });
    const timer = setTimeout(() => {
      browser.stop();
      reject(new Error(`no mDNS ${event} of hub ${id} within ${timeout} ms`));
    }, timeout);
    browser.on(event, (service) => {
      if (service.txt?.id !== id && service.name !== id) return;
      clearTimeout(timer);
      browser.stop();
      resolve(service);
    });
  });
}

describe('mDNS advertisement', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub({ mdns: true, name: 'Living room hub' });
  });
  afterAll(() => t?.stop());

  it('advertises _homey._tcp with the id, port and local address in TXT, at homey-<id>.local', async () => {
    const { id } = t.hub.context.config;
    const port = Number(new URL(t.url).port);
    const service = await browseFor(id);
    expect(service).toMatchObject({ name: id, type: 'homey', protocol: 'tcp', port, host: `homey-${id}.local` });
    expect(service.txt).toEqual({
      id,
      name: 'Living room hub',
      model: 'hearth-pro-5q',
      version: t.hub.context.config.softwareVersion,
      apiVersion: '3',
      address: '127.0.0.1',
      port: String(port),
    });
    // A hub bound to loopback is advertised only at loopback, where it answers.
    expect(service.addresses).toEqual(['127.0.0.1']);
    const ping = await fetch(`http://${service.addresses?.[0]}:${service.port}/api/manager/system/ping`);
    expect(ping.headers.get('x-homey-id')).toBe(id);
  });

  it('says goodbye when the hub stops', async () => {
    const other = await startTestHub({ mdns: true });
    const { id } = other.hub.context.config;
    await browseFor(id);
    const gone = browseFor(id, 'down');
    // Let the browser see the service first, so its goodbye is an event.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await other.stop();
    await expect(gone).resolves.toMatchObject({ name: id });
  });

  it('advertises a hub listening on every interface at the machine’s network address, where it answers', async () => {
    const wide = await startTestHub({ mdns: true, host: '0.0.0.0' });
    try {
      const { id } = wide.hub.context.config;
      const service = await browseFor(id);
      const address = service.txt?.address as string;
      expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(service.addresses).toContain(address);
      const ping = await fetch(`http://${address}:${service.port}/api/manager/system/ping?id=${id}`);
      expect(ping.status).toBe(200);
      expect(ping.headers.get('x-homey-id')).toBe(id);
    } finally {
      await wide.stop();
    }
  });

  it('is off unless asked for, and never on for a cloud hub', async () => {
    const quiet = await startTestHub();
    const cloudHub = await startTestHub({ mdns: true, model: 'hearth-cloud' });
    try {
      expect(quiet.hub.mdns).toBeNull();
      expect(cloudHub.hub.mdns).toBeNull();
      await expect(browseFor(cloudHub.hub.context.config.id, 'up', 2500)).rejects.toThrow('no mDNS up');
    } finally {
      await quiet.stop();
      await cloudHub.stop();
    }
  });
});

describe('mDNS name conflicts', () => {
  it('advertises a hub whose name is taken on the network as "<id> (2)", with its id in TXT', async () => {
    const first = await startTestHub({ mdns: true });
    const { id } = first.hub.context.config;
    try {
      await browseFor(id);
      // The same hub id a second time (a copied data folder, two demo worlds on one network).
      const second = await startTestHub({ mdns: true, id });
      try {
        const renamed = await new Promise<Service>((resolve, reject) => {
          const browser = bonjour.find({ type: 'homey' });
          const timer = setTimeout(() => {
            browser.stop();
            reject(new Error(`no "${id} (2)" advertised within 8 s`));
          }, 8000);
          browser.on('up', (service) => {
            if (service.name !== `${id} (2)`) return;
            clearTimeout(timer);
            browser.stop();
            resolve(service);
          });
        });
        expect(renamed.txt?.id).toBe(id);
        expect(renamed.port).toBe(Number(new URL(second.url).port));
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });
});
