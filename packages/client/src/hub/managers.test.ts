import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, type CoreHubAPI, HubAPI, Item, NotFoundError } from '../node';
import { type RunningHub, startRealHub } from '../testing/servers';

let hub: RunningHub;
let api: CoreHubAPI;

beforeAll(async () => {
  hub = await startRealHub();
  api = await HubAPI.local({ address: hub.url, token: hub.token });
});
afterAll(async () => {
  api.destroy();
  await hub.stop();
});

describe('managers over HTTP (real hub)', () => {
  it('lists, creates, reads, updates and deletes zones through the derived methods', async () => {
    const zones = await api.zones.getZones();
    const root = Object.values(zones).find((zone) => zone.parent === null);
    expect(root).toBeInstanceOf(Item);
    expect(root?.uri).toBe(`homey:zone:${root?.id}`);
    const created = await api.zones.createZone({ zone: { name: 'Kitchen', icon: 'kitchen', parent: root!.id } });
    expect(created).toMatchObject({ name: 'Kitchen', parent: root!.id });
    const read = await api.zones.getZone({ id: created.id });
    expect(read).toMatchObject({ id: created.id, name: 'Kitchen' });
    const updated = await api.zones.updateZone({ id: created.id, zone: { name: 'Big kitchen' } });
    expect(updated.name).toBe('Big kitchen');
    expect(await api.zones.deleteZone({ id: created.id })).toBeUndefined();
    const gone = await api.zones.getZone({ id: created.id }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
  });

  it('sends a whole-body parameter as the body and refuses a missing one before any request', async () => {
    // @ts-expect-error zone is required
    await expect(api.zones.createZone({})).rejects.toThrow('Missing Parameter: zone');
  });

  it('reads the session of a PAT, and a narrower PAT meets the missing scope as a 403', async () => {
    const session = await api.getSession();
    expect(session).toMatchObject({ type: 'PAT' });
    const pat = await api.users.createPersonalAccessToken({ name: 'zones only', scopes: ['homey.zone.readonly'] });
    const narrow = await HubAPI.local({ address: hub.url, token: pat.token });
    expect(Object.keys(await narrow.zones.getZones()).length).toBeGreaterThan(0);
    const error = await narrow.system.getInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ statusCode: 403, code: 'missing_scopes' });
    await api.users.deletePersonalAccessToken({ id: pat.id });
    const revoked = await narrow.zones.getZones().catch((e: unknown) => e);
    expect(revoked).toMatchObject({ statusCode: 401 });
  });
});
