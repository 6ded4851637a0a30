import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';

let t: TestHub;

beforeAll(async () => {
  t = await startTestHub({
    // The hub reaches its cloud at an internal address (nothing answers there: the test needs no cloud) …
    cloudUrl: 'http://127.0.0.1:9',
    // … and people's browsers at its public one.
    cloudPublicUrl: 'https://cloud.example.test/',
  });
});
afterAll(async () => {
  await t?.stop();
});

it('tells its web app the cloud address browsers reach, not the one the hub uses', async () => {
  const answer = await fetch(`${t.url}/home-cloud.json`);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(await answer.json()).toEqual({ url: 'https://cloud.example.test' });
});

it("lets the web app reach that cloud and show its catalogue's icons, and nothing at the internal address", async () => {
  const policy = (await fetch(`${t.url}/`)).headers.get('content-security-policy') ?? '';
  expect(policy).toContain("connect-src 'self' https://cloud.example.test");
  expect(policy).toContain("img-src 'self' data: blob: https://cloud.example.test");
  expect(policy).not.toContain('127.0.0.1:9');
});

it('answers no cloud for a hub without one', async () => {
  const alone = await startTestHub();
  try {
    expect(await (await fetch(`${alone.url}/home-cloud.json`)).json()).toEqual({ url: null });
  } finally {
    await alone.stop();
  }
});
