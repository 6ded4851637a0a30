import { STORE_CART_HEADER } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { createUser, DEMO_USER, describeOnDatabases, type Json, signIn, startTestCloud, tokenRequest } from '../../testing';

const ADDRESS = {
  billing_firstname: 'Gita',
  billing_lastname: 'Guest',
  billing_street: 'Dam',
  billing_number: '1',
  billing_zipcode: '1012 JS',
  billing_city: 'Amsterdam',
  billing_country: 'NL',
};
const PASSWORD = 'lantern-orchard-velvet-42';

describeOnDatabases('store: a guest fills a cart and makes an account at checkout', (backend) => {
  let cloud: Cloud;
  /** A call as a guest (their cart's token in the header), as a user (a Bearer token), or as neither. */
  const send = async (who: { guest?: string; token?: string }, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (who.guest) headers[STORE_CART_HEADER] = who.guest;
    if (who.token) headers.authorization = `Bearer ${who.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${cloud.url}/store${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  const openCart = async () => {
    const opened = await send({}, 'POST', '/cart/guest', {});
    expect(opened.status).toBe(201);
    return opened.body.token as string;
  };
  /** A guest with a Pro mini and a month of Premium in the cart, and their address. */
  const guestWithCart = async (email: string) => {
    const guest = await openCart();
    await send({ guest }, 'POST', '/cart', { sku: 'hearth-pro-mini', quantity: 1, options: { plug: 'EU' } });
    await send({ guest }, 'POST', '/cart', { sku: 'homey_premium_1m', quantity: 1 });
    expect((await send({ guest }, 'PUT', '/userdata', { ...ADDRESS, email })).status).toBe(200);
    return guest;
  };
  const stock = async (sku: string) => (await send({}, 'GET', `/product/${sku}`)).body.stock as number;
  const db = () => cloud.context.database.db;
  const userByEmail = (email: string) => db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  const sink = () => {
    const found = cloud.context.mail.sink;
    if (!found) throw new Error('the test cloud has no SMTP sink');
    return found;
  };
  const approve = async (actionUrl: string) => {
    const response = await fetch(`${cloud.url}${new URL(actionUrl).pathname}/approve`, { method: 'POST' });
    expect(await response.text()).toContain('Payment approved');
  };

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('keeps a guest’s cart by its token, and refuses calls with neither a session nor a cart', async () => {
    const guest = await openCart();
    const other = await openCart();
    expect(guest).not.toBe(other);
    const added = await send({ guest }, 'POST', '/cart', { sku: 'hearth-energy-dongle', quantity: 2 });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ itemCount: 2, subtotal: 9_800, currency: 'EUR' });
    expect((await send({ guest }, 'PUT', '/locale', { country: 'DE' })).body).toMatchObject({ country: 'DE', currency: 'EUR' });
    expect((await send({ guest }, 'GET', '/vat')).body).toMatchObject({ country: 'DE', rate: 19 });
    // Another guest's cart is their own.
    expect((await send({ guest: other }, 'GET', '/cart')).body.items).toEqual([]);
    // Neither a session nor a cart; a cart token nobody opened; a Bearer token that is no longer valid.
    expect((await send({}, 'GET', '/cart')).body.error).toBe('missing_token');
    expect((await send({ guest: 'made-up-cart-token-0123456789' }, 'GET', '/cart')).body.error).toBe('invalid_token');
    const stale = await send({ guest, token: 'expired-access-token' }, 'GET', '/cart');
    expect(stale).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    // What only an account has is still refused to a guest.
    expect((await send({ guest }, 'GET', '/user/order')).status).toBe(401);
    expect((await send({ guest }, 'GET', '/cart')).body.itemCount).toBe(2);
  });

  it('makes the account with the order: one transaction, the cart carried over, the guest paying with its token', async () => {
    const email = 'gita.guest@example.test';
    const guest = await guestWithCart(email);
    const started = Date.now();
    // The password is checked as sign-up checks one, and never answered.
    const weak = await send({ guest }, 'PUT', '/userdata', { create_account: true, password: 'password123' });
    expect(weak).toMatchObject({ status: 400, body: { error: 'invalid_parameter' } });
    expect((await send({ guest }, 'GET', '/cart')).body.itemCount).toBe(2);
    const noAccount = await send({ guest }, 'POST', '/order', {});
    expect(noAccount.status).toBe(400);
    expect(noAccount.body).toMatchObject({
      error: 'missing_parameter',
      error_description: expect.stringContaining('create_account'),
    });
    const data = await send({ guest }, 'PUT', '/userdata', { create_account: true, password: PASSWORD, newsletter: true });
    expect(data.status).toBe(200);
    expect(data.body).toMatchObject({ create_account: true, email });
    expect(JSON.stringify(data.body)).not.toContain(PASSWORD);
    expect((await send({ guest }, 'PUT', '/locale', { language: 'nl' })).status).toBe(200);
    const mini = await stock('hearth-pro-mini');

    // Two orders of one cart at once: one makes the order and the account, the other finds the cart gone.
    const [first, second] = await Promise.all([send({ guest }, 'POST', '/order', {}), send({ guest }, 'POST', '/order', {})]);
    const made = first.status === 201 ? first : second;
    const lost = first.status === 201 ? second : first;
    expect(made.status).toBe(201);
    expect(lost.status).toBe(401);
    expect(made.body).toMatchObject({
      status: 'pending_payment',
      subtotal: 19_900 + 499,
      account: { email, passwordLinkMailed: false },
    });
    expect(await stock('hearth-pro-mini')).toBe(mini - 1);
    const user = await userByEmail(email);
    expect(user).toMatchObject({ firstname: 'Gita', lastname: 'Guest', language: 'nl', email_verified_at: null });
    const newsletter = await db()
      .selectFrom('mailing_list_members')
      .select('list_id')
      .where('user_id', '=', user?.id as string)
      .execute();
    expect(newsletter).toEqual([{ list_id: 'newsletter' }]);
    // Verified by the link mailed to the address, as after sign-up.
    const mail = await sink().waitFor((m) => m.to.includes(email) && m.receivedAt.getTime() >= started);
    expect(mail.subject).toBe('Verify your Hearth e-mail address');

    // The cart is the account's now: the guest's token no longer opens it, but pays the order it made.
    expect((await send({ guest }, 'GET', '/cart')).status).toBe(401);
    const pay = await send({ guest }, 'POST', '/order/pay', { orderId: made.body.id });
    expect(pay.status).toBe(200);
    expect(pay.body.payment).toMatchObject({ status: 'requires_action', amount: made.body.total });
    await approve(pay.body.payment.actionUrl);

    // Signing in with the chosen password: the paid order, the subscription it bought, and the cart's locale and
    // addresses are there; the account makes no second account.
    const { access_token: token } = await signIn(cloud, email, PASSWORD);
    const orders = await send({ token }, 'GET', '/user/order');
    expect(orders.body).toEqual([expect.objectContaining({ id: made.body.id, status: 'paid' })]);
    const me = (await (
      await fetch(`${cloud.url}/cloud/user/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Json;
    expect(Object.values(me.subscriptions as Record<string, Json>)).toEqual([
      expect.objectContaining({ type: 'homey_premium', status: 'active' }),
    ]);
    expect((await send({ token }, 'GET', '/locale')).body).toMatchObject({ country: 'NL', language: 'nl' });
    const cart = await send({ token }, 'GET', '/cart');
    expect(cart.body.items).toEqual([]);
    const userdata = await send({ token }, 'PUT', '/userdata', {});
    expect(userdata.body).toMatchObject({ billing_city: 'Amsterdam', email });
    expect(userdata.body.create_account).toBeUndefined();
  });

  it('mails a guest who chose no password a link that sets one', async () => {
    const email = 'noor.nopassword@example.test';
    const guest = await guestWithCart(email);
    await send({ guest }, 'PUT', '/userdata', { create_account: true });
    const started = Date.now();
    const made = await send({ guest }, 'POST', '/order', {});
    expect(made.status).toBe(201);
    expect(made.body.account).toEqual({ email, passwordLinkMailed: true });
    // Nobody can sign in before the link is opened.
    const refused = await tokenRequest(cloud, { grant_type: 'password', username: email, password: '' });
    expect(refused.status).toBe(400);
    const mail = await sink().waitFor((m) => m.to.includes(email) && m.receivedAt.getTime() >= started);
    expect(mail.subject).toBe('Choose a password for your Hearth account');
    const link = new URL(/(http\S+password-reset\?token=\S+)/.exec(mail.text)?.[1] as string);
    const page = await fetch(`${cloud.url}${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const set = await fetch(`${cloud.url}/cloud/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ csrf, token: link.searchParams.get('token') as string, password: PASSWORD }).toString(),
    });
    expect(set.status).toBe(200);
    const { access_token: token } = await signIn(cloud, email, PASSWORD);
    expect((await send({ token }, 'GET', '/user/order')).body).toEqual([
      expect.objectContaining({ id: made.body.id, status: 'pending_payment' }),
    ]);
  });

  it('answers an address that has an account as a new one: the order goes into that account, which is otherwise untouched, and its owner is told', async () => {
    const owner = await createUser(cloud, 'owner.account@example.test');
    await send({ token: owner.token }, 'PUT', '/userdata', { billing_city: 'Utrecht' });
    await send({ token: owner.token }, 'POST', '/cart', { sku: 'hearth-energy-dongle', quantity: 1 });
    const users = (await db().selectFrom('users').select('id').execute()).length;

    // The same checkout, once with an address that has an account and once with a new one.
    const checkout = async (email: string) => {
      const guest = await guestWithCart(email);
      await send({ guest }, 'PUT', '/userdata', { create_account: true, password: PASSWORD });
      const started = Date.now();
      const answer = await send({ guest }, 'POST', '/order', {});
      const mail = await sink().waitFor((m) => m.to.includes(email.toLowerCase()) && m.receivedAt.getTime() >= started);
      return { guest, answer, mail };
    };
    const taken = await checkout('Owner.Account@example.test');
    const fresh = await checkout('owner.newcomer@example.test');
    const shape = (answer: { status: number; body: Json }) => ({
      status: answer.status,
      fields: Object.keys(answer.body).sort(),
      orderStatus: answer.body.status,
    });
    expect(shape(taken.answer)).toEqual(shape(fresh.answer));
    expect(taken.answer.body.account).toEqual({ email: 'owner.account@example.test', passwordLinkMailed: false });
    expect(fresh.answer.body.account).toEqual({ email: 'owner.newcomer@example.test', passwordLinkMailed: false });
    expect(taken.answer.status).toBe(201);
    // After the order, neither guest token opens a cart, and each pays its own order only.
    for (const { guest } of [taken, fresh]) expect((await send({ guest }, 'GET', '/cart')).status).toBe(401);

    // One account was made (the new address's), none for the taken one; its order is in the owner's account.
    expect((await db().selectFrom('users').select('id').execute()).length).toBe(users + 1);
    const ownerOrders = await send({ token: owner.token }, 'GET', '/user/order');
    expect(ownerOrders.body).toEqual([expect.objectContaining({ id: taken.answer.body.id, status: 'pending_payment' })]);
    // The owner's account is as it was: their password, their cart and their own data; the guest's password opens nothing.
    await expect(signIn(cloud, 'owner.account@example.test', PASSWORD)).rejects.toThrow();
    await signIn(cloud, 'owner.account@example.test', 'a-good-password-1');
    expect((await send({ token: owner.token }, 'GET', '/cart')).body.itemCount).toBe(1);
    expect((await send({ token: owner.token }, 'PUT', '/userdata', {})).body).toMatchObject({ billing_city: 'Utrecht' });
    // The owner is told, with no way in; the new address gets its verification.
    expect(taken.mail.subject).toBe('An order was added to your Hearth account');
    expect(taken.mail.text).toContain(`Order ${taken.answer.body.number}`);
    expect(taken.mail.text).not.toMatch(/token=/);
    expect(fresh.mail.subject).not.toBe(taken.mail.subject);
  });

  it('brings a guest’s cart along when they sign in to the account they have instead', async () => {
    const owner = await createUser(cloud, 'owner.signsin@example.test');
    const guest = await guestWithCart('owner.signsin@example.test');
    await send({ token: owner.token }, 'PUT', '/userdata', { billing_city: 'Utrecht' });
    await send({ token: owner.token }, 'POST', '/cart', { sku: 'hearth-energy-dongle', quantity: 1 });
    expect(
      (await send({ token: owner.token }, 'POST', '/cart/guest/claim', { token: 'not-a-guest-cart-token-0000' })).status,
    ).toBe(404);
    const claimed = await send({ token: owner.token }, 'POST', '/cart/guest/claim', { token: guest });
    expect(claimed.status).toBe(200);
    expect(claimed.body.items.map((item: Json) => item.sku).sort()).toEqual([
      'hearth-energy-dongle',
      'hearth-pro-mini',
      'homey_premium_1m',
    ]);
    const data = await send({ token: owner.token }, 'PUT', '/userdata', {});
    expect(data.body).toMatchObject({ billing_city: 'Utrecht', billing_firstname: 'Gita' });
    expect(data.body.create_account).toBeUndefined();
    expect((await send({ guest }, 'GET', '/cart')).status).toBe(401);
    expect((await send({ token: owner.token }, 'POST', '/cart/guest/claim', { token: guest })).status).toBe(404);
    const order = await send({ token: owner.token }, 'POST', '/order', {});
    expect(order.status).toBe(201);
    expect(order.body.account).toBeUndefined();
  });

  it('gives a guest no way into anyone’s account or order', async () => {
    const victim = await createUser(cloud, 'victim.buyer@example.test');
    await send({ token: victim.token }, 'PUT', '/userdata', { ...ADDRESS, email: 'victim.buyer@example.test' });
    await send({ token: victim.token }, 'POST', '/cart', { sku: 'hearth-energy-dongle', quantity: 1 });
    const victimOrder = (await send({ token: victim.token }, 'POST', '/order', {})).body;
    const guest = await guestWithCart('mallory@example.test');
    // Another's order is not the guest's to pay, by id or by number.
    for (const orderId of [victimOrder.id, victimOrder.number])
      expect((await send({ guest }, 'POST', '/order/pay', { orderId })).status).toBe(404);
    // A signed-in buyer neither makes another account nor sets a password here.
    expect((await send({ token: victim.token }, 'PUT', '/userdata', { create_account: true })).status).toBe(409);
    expect((await send({ token: victim.token }, 'PUT', '/userdata', { password: PASSWORD })).status).toBe(409);
    await signIn(cloud, 'victim.buyer@example.test', 'a-good-password-1');
    // Bad input is refused with its code and changes nothing.
    const bad = [
      await send({ guest }, 'PUT', '/userdata', { password: 'short' }),
      await send({ guest }, 'PUT', '/userdata', { create_account: 'yes' }),
      await send({ guest }, 'PUT', '/userdata', { email: 'not-an-address' }),
      await send({}, 'POST', '/cart/guest', { token: 'mine' }),
    ];
    expect(bad.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'invalid_parameter'],
      [400, 'invalid_parameter_type'],
      [400, 'invalid_parameter'],
      [400, 'invalid_parameter'],
    ]);
    const data = await send({ guest }, 'PUT', '/userdata', {});
    expect(data.body).toEqual({ ...ADDRESS, email: 'mallory@example.test' });
  });
});
