import { expect, it } from 'vitest';
import { DEMO_HUBS, DEMO_USER, describeOnDatabases, internalToken, type Json, readJson } from '../../testing';
import { useCatalogue } from './test-helpers';

describeOnDatabases('app catalogue: reviews, thanks, suggestions and crash reports', (backend) => {
  const catalogue = useCatalogue(backend);
  const { api, publish } = catalogue;

  it('takes one review per user, developer responses, stats and thanks', async () => {
    const { cloud, dev, other, demoToken } = catalogue;
    await publish('com.aurora.reviewed', '2.0.0');
    expect((await api('PUT', '/app/com.aurora.reviewed/review', null, { version: '2.0.0', rating: 5 })).status).toBe(401);
    const bad = await readJson(await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '2.0.0', rating: 6 }));
    expect(bad).toMatchObject({ statusCode: 400, error_description: expect.stringContaining('rating') });
    expect((await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '9.9.9', rating: 3 })).status).toBe(400);
    await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '2.0.0', rating: 2, comment: 'Meh' });
    const replaced = await readJson(
      await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '2.0.0', rating: 4, comment: 'Better' }),
    );
    expect(replaced).toMatchObject({ userId: other.id, rating: 4, comment: 'Better', response: null });
    await api('PUT', '/app/com.aurora.reviewed/review', demoToken, { version: '2.0.0', rating: 5 });
    expect(
      (await api('PUT', `/app/com.aurora.reviewed/review/${other.id}/response`, other.token, { response: 'x' })).status,
    ).toBe(403);
    await api('PUT', `/app/com.aurora.reviewed/review/${other.id}/response`, dev.token, { response: 'Thanks for the feedback' });
    const reviews = await readJson(await api('GET', '/app/com.aurora.reviewed/review', null));
    expect(reviews).toHaveLength(2);
    expect(reviews.find((r: Json) => r.userId === other.id).response.text).toBe('Thanks for the feedback');
    expect(await readJson(await api('GET', '/app/com.aurora.reviewed/review/stats', null))).toEqual({
      count: 2,
      average: 4.5,
      distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 },
    });
    expect((await api('DELETE', `/app/com.aurora.reviewed/review/${other.id}/response`, dev.token)).status).toBe(204);
    expect((await api('DELETE', '/app/com.aurora.reviewed/review/all', dev.token)).status).toBe(403);
    expect((await api('DELETE', '/app/com.aurora.reviewed/review', other.token)).status).toBe(204);
    expect((await readJson(await api('GET', '/app/com.aurora.reviewed', null))).rating).toEqual({ average: 5, count: 1 });
    expect((await api('DELETE', '/app/com.aurora.reviewed/review/all', await internalToken(cloud))).status).toBe(204);

    expect(await readJson(await api('PUT', '/app/com.aurora.reviewed/thanks', other.token, {}))).toEqual({
      count: 1,
      thanked: true,
    });
    expect(await readJson(await api('PUT', '/app/com.aurora.reviewed/thanks', other.token, {}))).toEqual({
      count: 1,
      thanked: true,
    });
    expect(await readJson(await api('GET', '/app/com.aurora.reviewed/thanks', null))).toEqual({ count: 1, thanked: false });

    expect((await api('POST', '/app/com.aurora.reviewed/suggestion', other.token, { suggestionText: 'Add scenes' })).status).toBe(
      201,
    );
    expect((await api('GET', '/app/com.aurora.reviewed/suggestion', other.token)).status).toBe(403);
    expect(await readJson(await api('GET', '/app/com.aurora.reviewed/suggestion', dev.token))).toMatchObject([
      { suggestionText: 'Add scenes', userId: other.id },
    ]);
  });

  it('groups crash reports by stack and mails the developer reply to the hub owner', async () => {
    const { cloud, dev, other } = catalogue;
    const build = await publish('com.aurora.crashy', '1.0.0');
    const hub = DEMO_HUBS[0]?.id as string;
    const stack = (line: number) =>
      `TypeError: Cannot read properties of undefined (reading 'x')\n    at Driver.onPoll (/userdata/apps/com.aurora.crashy/app/drivers/spot/driver.js:${line}:7)`;
    const report = (homeyId: string, s: string) =>
      api('POST', '/app/com.aurora.crashy/crash', null, { appVersion: '1.0.0', homeyId, homeyVersion: '12.1.0', stack: s });
    await api('GET', `/app/com.aurora.crashy/install?secret=${hub}`, null);
    const first = await report(hub, stack(42));
    expect(first.status).toBe(201);
    const { _id: crashId, stackHash } = await readJson(first);
    expect((await readJson(await report('5ea7c0de00000000000000b2', stack(42)))).stackHash).toBe(stackHash);
    expect((await readJson(await report(hub, 'RangeError: boom\n    at x (/app/app.js:1:1)'))).stackHash).not.toBe(stackHash);
    expect((await report(hub, '')).status).toBe(400);
    expect(
      (
        await api('POST', '/app/com.aurora.crashy/crash', null, {
          appVersion: '7.0.0',
          homeyId: hub,
          homeyVersion: '1',
          stack: 'x',
        })
      ).status,
    ).toBe(404);

    const groups = await readJson(await api('GET', `/app/com.aurora.crashy/build/${build._id}/crash`, dev.token));
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ stackHash, count: 2, homeys: 2 });
    expect((await api('GET', `/app/com.aurora.crashy/build/${build._id}/crash`, other.token)).status).toBe(403);
    const stats = await readJson(await api('GET', `/app/com.aurora.crashy/build/${build._id}/crash/stats`, dev.token));
    expect(stats).toMatchObject({ total: 3, groups: 2, homeys: 2, perHomeyVersion: { '12.1.0': 3 } });

    const sink = cloud.context.mail.sink;
    if (!sink) throw new Error('tests run with the SMTP sink');
    expect((await api('POST', `/app/crash/${crashId}/reply`, other.token, { subject: 'x', body: 'y' })).status).toBe(403);
    // A report naming a hub that never installed the app cannot be used to mail that hub's owner.
    const forged = await readJson(await report('5ea7c0de00000000000000b2', stack(42)));
    expect((await api('POST', `/app/crash/${forged._id}/reply`, dev.token, { subject: 'x', body: 'y' })).status).toBe(409);
    const reply = await api('POST', `/app/crash/${crashId}/reply`, dev.token, {
      subject: 'About your crash',
      body: 'Fixed in 1.0.1, please update.',
      from: 'Aurora support',
    });
    expect(reply.status).toBe(200);
    const mail = await sink.waitFor((m) => m.subject === 'About your crash');
    expect(mail.to).toContain(DEMO_USER.email);
    expect(mail.text).toContain('Fixed in 1.0.1, please update.');
  });
});
