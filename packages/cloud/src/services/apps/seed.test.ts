import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, readJson, startTestCloud, tokenRequest } from '../../testing';

const README = join(import.meta.dirname, '../../../../../README.md');

/** The accounts the README's table of demo accounts lists, each with the password it gives. */
function documentedAccounts(): Map<string, string> {
  const accounts = new Map<string, string>();
  for (const line of readFileSync(README, 'utf8').split('\n')) {
    const [who, password] = line.split('|').slice(1, 3);
    const secret = password ? /^\s*`([^`]+)`\s*$/.exec(password)?.[1] : undefined;
    if (!who || !secret) continue;
    for (const match of who.matchAll(/`([^`\s]+@[^`\s]+)`/g)) accounts.set(match[1] as string, secret);
  }
  return accounts;
}

describeOnDatabases('demo world accounts', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('are all in the README, with the password that signs each of them in', async () => {
    const seeded = await cloud.context.database.db.selectFrom('users').select('email').orderBy('email').execute();
    const developers = seeded.filter((u) => u.email.endsWith('@developers.hearth.test'));
    expect(developers.length).toBeGreaterThanOrEqual(8);
    const documented = documentedAccounts();
    expect([...documented.keys()].sort()).toEqual(seeded.map((u) => u.email));
    for (const [email, password] of documented) {
      const response = await tokenRequest(cloud, { grant_type: 'password', username: email, password });
      expect(response.status, `${email} / ${password}`).toBe(200);
      expect(await readJson(response)).toMatchObject({ access_token: expect.any(String) });
    }
  });
});
