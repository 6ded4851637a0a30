import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('google-assistant manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('refuses to sync while disabled, then syncs once enabled', async () => {
    expect((await t.call('GET', '/google-assistant/option/enabled')).body).toEqual({ value: false });
    expect((await t.call('POST', '/google-assistant/sync', {})).status).toBe(409);
    await t.call('PUT', '/google-assistant/option/enabled', { value: true });
    const sync = await t.call<{ syncCount: number }>('POST', '/google-assistant/sync', {});
    expect(sync.status).toBe(200);
    expect(sync.body.syncCount).toBe(1);
    expect((await t.call<{ syncCount: number }>('POST', '/google-assistant/sync', {})).body.syncCount).toBe(2);
    expect((await t.call('DELETE', '/google-assistant/option/enabled')).status).toBe(204);
  });

  it('stores a PIN code of digits and refuses anything else', async () => {
    expect((await t.call('GET', '/google-assistant/option/pinCode')).body).toEqual({ value: null });
    expect((await t.call('PUT', '/google-assistant/option/pinCode', { value: '1234' })).body).toEqual({ value: '1234' });
    expect((await t.call('GET', '/google-assistant/option/pinCode')).body).toEqual({ value: '1234' });
    expect((await t.call<{ hasPinCode: boolean }>('GET', '/google-assistant/state')).body.hasPinCode).toBe(true);
    expect((await t.call('PUT', '/google-assistant/option/pinCode', { value: '12ab' })).status).toBe(400);
    expect((await t.call('DELETE', '/google-assistant/option/pinCode')).status).toBe(204);
  });
});
