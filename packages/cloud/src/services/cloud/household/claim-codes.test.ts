import { CLAIM_CODE_ALPHABET, CLAIM_CODE_LIFETIME_MINUTES, formatClaimCode } from '@hearth/contract/provider';
import { skippingClock } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../../server';
import {
  call,
  createUser,
  DEMO_USER,
  describeOnDatabases,
  internalToken,
  readJson,
  signIn,
  startTestCloud,
} from '../../../testing';

describeOnDatabases('claiming a hub by its short code', (backend) => {
  let cloud: Cloud;
  let internal: string;
  // The real clock, moved forward by the test to pass a code's end without waiting for it.
  const { clock, skip } = skippingClock();
  beforeAll(async () => {
    cloud = await startTestCloud(backend, {}, { clock });
    internal = await internalToken(cloud);
  });
  afterAll(() => cloud.stop());

  /** A hub registering as it does at start, then asking for the code it shows (as the hub's cloud link does). */
  async function unownedHub(name: string) {
    const registered = await readJson(
      await call(cloud, 'POST', '/cloud/homey/', internal, { data: { name, model: 'hearth-pro-mini-6q' } }),
    );
    const id = registered.homey._id as string;
    return { id, ...(await newCode(id)) };
  }
  async function newCode(id: string) {
    const answer = await call(cloud, 'POST', `/cloud/homey/${id}/claim_code`, internal);
    expect(answer.status).toBe(200);
    return (await readJson(answer)) as { code: string; expiresAt: string };
  }
  const claim = (token: string | null, code: string) => call(cloud, 'POST', '/cloud/homey/claim', token, { code });
  /** A well-formed code that is not `code`. */
  const otherThan = (code: string) => (code[0] === 'A' ? 'B' : 'A') + code.slice(1);

  it('gives an unowned hub a short code of the unambiguous alphabet that works for a quarter of an hour', async () => {
    const before = clock.now();
    const hub = await unownedHub('Garden shed');
    // Measured from when the code was asked for at the latest, so a slow answer on a loaded machine does not count
    // as lifetime (it once took more than the second of slack a bound from \`before\` had).
    const after = clock.now();
    expect(hub.code).toMatch(new RegExp(`^[${CLAIM_CODE_ALPHABET}]{8}$`));
    expect(hub.code).not.toMatch(/[01IO]/);
    expect(Date.parse(hub.expiresAt) - before).toBeGreaterThan((CLAIM_CODE_LIFETIME_MINUTES - 1) * 60_000);
    expect(Date.parse(hub.expiresAt) - after).toBeLessThanOrEqual(CLAIM_CODE_LIFETIME_MINUTES * 60_000 + 1000);
    // Only the hub (an internal caller) gets one.
    const user = await createUser(cloud, 'curious@example.test');
    const asUser = await call(cloud, 'POST', `/cloud/homey/${hub.id}/claim_code`, user.token);
    expect(asUser.status).toBe(403);
    expect((await readJson(asUser)).error).toBe('private_operation');
    expect((await call(cloud, 'POST', '/cloud/homey/no-such-hub/claim_code', internal)).status).toBe(404);
  });

  it('claims with the good code however it is typed, once; then the hub has an owner and no code', async () => {
    const owner = await createUser(cloud, 'owner@example.test');
    const other = await createUser(cloud, 'second@example.test');
    const hub = await unownedHub('Kitchen');
    // Auth required.
    const anonymous = await claim(null, hub.code);
    expect(anonymous.status).toBe(401);

    const typed = ` ${formatClaimCode(hub.code).toLowerCase()} `;
    const claimed = await claim(owner.token, typed);
    expect(claimed.status).toBe(200);
    expect(await readJson(claimed)).toMatchObject({ _id: hub.id, name: 'Kitchen', role: 'owner' });
    const record = await readJson(await call(cloud, 'GET', `/cloud/homey/${hub.id}`, internal));
    expect(record.users).toEqual(expect.arrayContaining([expect.objectContaining({ _id: owner.id, role: 'owner' })]));

    // Reused: the code claimed once claims nothing again, answered as a wrong one.
    const reused = await claim(other.token, hub.code);
    expect(reused.status).toBe(403);
    expect((await readJson(reused)).error).toBe('claim_code_invalid');
    // An owned hub gets no new code.
    const afterwards = await call(cloud, 'POST', `/cloud/homey/${hub.id}/claim_code`, internal);
    expect(afterwards.status).toBe(409);
  });

  it('refuses a wrong code with a sentence, and an expired one as expired; a new code then works', async () => {
    const person = await createUser(cloud, 'late@example.test');
    const hub = await unownedHub('Loft');
    const wrong = await claim(person.token, otherThan(hub.code));
    expect(wrong.status).toBe(403);
    const wrongBody = await readJson(wrong);
    expect(wrongBody.error).toBe('claim_code_invalid');
    expect(wrongBody.error_description).toBe('This code does not claim any hub. Check it against the one the hub shows now.');
    const notACode = await claim(person.token, 'hello world, not a code');
    expect(notACode.status).toBe(403);

    await skip((CLAIM_CODE_LIFETIME_MINUTES + 1) * 60_000);
    const expired = await claim(person.token, hub.code);
    expect(expired.status).toBe(410);
    expect(await readJson(expired)).toMatchObject({
      error: 'claim_code_expired',
      error_description: 'This code has expired. Enter the new one the hub shows now.',
    });
    const renewed = await newCode(hub.id);
    expect(renewed.code).not.toBe(hub.code);
    expect((await claim(person.token, renewed.code)).status).toBe(200);
  });

  it('lets the demo world’s account claim a hub (its address is vouched for, as `--unclaimed-hub` needs)', async () => {
    const demo = await signIn(cloud, DEMO_USER.email, DEMO_USER.password);
    const hub = await unownedHub('New hub');
    const claimed = await claim(demo.access_token, hub.code);
    expect(claimed.status).toBe(200);
    expect((await readJson(claimed)).role).toBe('owner');
  });

  it('throttles a guesser with 429 and Retry-After, and never holds back the person the hub shows its code to', async () => {
    const guesser = await createUser(cloud, 'guesser@example.test');
    const rightful = await createUser(cloud, 'rightful@example.test');
    const hub = await unownedHub('Cellar');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await claim(guesser.token, otherThan(hub.code))).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    const held = await claim(guesser.token, otherThan(hub.code));
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await readJson(held)).error_description).toMatch(/^Too many wrong codes\. Try again in \d+ seconds?\.$/);
    // While held, even the right code is not looked up for the guesser: a 429 tells them nothing.
    expect((await claim(guesser.token, hub.code)).status).toBe(429);
    // The person in front of the hub, on their own account, claims at once.
    const claimed = await claim(rightful.token, hub.code);
    expect(claimed.status).toBe(200);
    expect((await readJson(claimed)).role).toBe('owner');
  });
});

describe('claim code format', () => {
  it('is read back however people type it', async () => {
    const { normaliseClaimCode } = await import('@hearth/contract/provider');
    expect(normaliseClaimCode(' abcd-efgh ')).toBe('ABCDEFGH');
    expect(normaliseClaimCode('ABCD EFGH')).toBe('ABCDEFGH');
    expect(normaliseClaimCode('ABCD-EFG0')).toBeNull();
    expect(normaliseClaimCode('ABCDEFG')).toBeNull();
  });
});
