import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, describeOnDatabases, readJson, signIn, startTestCloud } from '../../testing';

describeOnDatabases('store, the user side', (backend) => {
  let cloud: Cloud;
  let demo: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    demo = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  it("lists the user's orders, newest first, and gets one by id or number", async () => {
    const response = await call(cloud, 'GET', '/store/user/order', demo);
    expect(response.status).toBe(200);
    const orders = await readJson(response);
    expect(orders).toHaveLength(2);
    expect(orders[0]).toMatchObject({ number: '100467', status: 'shipped', currency: 'EUR', total: 26800 });
    expect(orders[1]).toMatchObject({ number: '100231', date: '2025-02-20T12:00:00.000Z' });
    expect(Object.keys(orders[0])[0]).toBe('_id');
    const byId = await readJson(await call(cloud, 'GET', `/store/user/order/${orders[1]._id}`, demo));
    expect(byId.items).toEqual([{ sku: 'hearth-pro-2023', name: 'Hearth Pro', quantity: 1, price: 39900 }]);
    expect((await call(cloud, 'GET', '/store/user/order/100467', demo)).status).toBe(200);
    expect((await call(cloud, 'GET', '/store/user/order/unknown', demo)).status).toBe(404);
  });

  it("never shows another user's orders", async () => {
    const other = await createUser(cloud, 'shopper@hearth.test');
    expect(await readJson(await call(cloud, 'GET', '/store/user/order', other.token))).toEqual([]);
    const orders = await readJson(await call(cloud, 'GET', '/store/user/order', demo));
    const foreign = await call(cloud, 'GET', `/store/user/order/${orders[0]._id}`, other.token);
    expect(foreign.status).toBe(404);
    expect((await call(cloud, 'GET', '/store/user/order', null)).status).toBe(401);
  });

  it('opens and closes store sessions, stored only as hashes', async () => {
    const opened = await call(cloud, 'POST', '/store/user/session', demo, {});
    expect(opened.status).toBe(200);
    const { token, expiresAt } = await readJson(opened);
    expect(token).toEqual(expect.any(String));
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now());
    const stored = await cloud.context.database.db.selectFrom('store_sessions').selectAll().execute();
    expect(stored.some((s) => s.token_hash === token)).toBe(false);
    expect((await call(cloud, 'DELETE', '/store/user/session', demo, { token })).status).toBe(204);
    expect((await call(cloud, 'DELETE', '/store/user/session', demo, { token })).status).toBe(404);
  });

  it('logs out: the session and its refresh token stop working', async () => {
    const tokens = await signIn(cloud);
    expect((await call(cloud, 'POST', '/store/user/logout', tokens.access_token, {})).status).toBe(204);
    const after = await call(cloud, 'GET', '/store/user/order', tokens.access_token);
    expect(after.status).toBe(401);
    expect(await readJson(after)).toMatchObject({ error: 'invalid_token' });
    expect((await call(cloud, 'GET', '/store/user/order', demo)).status).toBe(200);
  });
});
