import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCloud } from '../../testing/cloud';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Update {
  version: string;
  channel: string;
}
interface State {
  status: string;
  version: string | null;
  progress: number;
  currentVersion: string;
  rebootRequired: boolean;
}

describe('updates manager', () => {
  let cloud: Cloud;
  let t: TestHub;
  let alone: TestHub;
  beforeAll(async () => {
    // The releases and their changelogs come from the real cloud's update service.
    cloud = await startEmbeddedCloud();
    t = await startTestHub({ softwareVersion: '12.4.0', cloudUrl: cloud.url });
    alone = await startTestHub({ softwareVersion: '12.4.0', cloudUrl: null });
  });
  afterAll(async () => {
    await t?.stop();
    await alone?.stop();
    await cloud?.stop();
  });

  it('knows of no update without a cloud, and of its running version once it has one, in its language', async () => {
    expect((await alone.call<Update[]>('GET', '/updates/update')).body).toEqual([]);
    expect((await alone.call('POST', '/updates/update', {})).status).toBe(404);
    expect((await alone.call<unknown[]>('GET', '/updates/whatsnew')).body).toEqual([]);
    await t.call('PUT', '/i18n/option/language', { value: 'nl' });
    const running = await t.call<{ id: string; body: string }[]>('GET', '/updates/whatsnew');
    expect(running.body).toEqual([expect.objectContaining({ id: '12.4.0', body: 'Persoonlijke toegangstokens en dashboards.' })]);
    await t.call('DELETE', '/i18n/option/language');
  });

  it('answers the updates of its channel as an array, newest first', async () => {
    const first = await t.call<(Update & { id: string })[]>('GET', '/updates/update');
    expect(first.body.map((u) => [u.id, u.version])).toEqual([['12.4.1', '12.4.1']]);
    await t.call('PUT', '/updates/option/channel', { value: 'beta' });
    expect((await t.call<Update[]>('GET', '/updates/update')).body.map((u) => u.version)).toEqual([
      '12.5.0-rc.1',
      '12.5.0-beta.3',
      '12.4.1',
    ]);
    expect((await t.call('PUT', '/updates/option/channel', { value: 'nightly' })).status).toBe(400);
    expect((await t.call('DELETE', '/updates/option/channel')).status).toBe(204);
    for (const name of ['autoupdate', 'forceChannel', 'updateNotifications']) {
      expect((await t.call('GET', `/updates/option/${name}`)).status).toBe(200);
      expect((await t.call('PUT', `/updates/option/${name}`, { value: false })).body).toEqual({ value: false });
      expect((await t.call('PUT', `/updates/option/${name}`, { value: 'no' })).status).toBe(400);
      expect((await t.call('DELETE', `/updates/option/${name}`)).status).toBe(204);
    }
  });

  it('installs an update through its states, then shows what is new', async () => {
    expect((await t.call('DELETE', '/updates/update')).status).toBe(409);
    const started = await t.call<State>('POST', '/updates/update', { reboot: false });
    expect(started.body).toMatchObject({ status: 'downloading', version: '12.4.1', progress: 0 });
    expect((await t.call('POST', '/updates/update', {})).status).toBe(409);
    await expect
      .poll(async () => (await t.call<State>('GET', '/updates/state')).body.status, { timeout: 5000 })
      .toBe('installed');
    const state = await t.call<State>('GET', '/updates/state');
    expect(state.body).toMatchObject({ currentVersion: '12.4.1', rebootRequired: true, progress: 100 });
    expect((await t.call<Update[]>('GET', '/updates/update')).body).toEqual([]);
    expect((await t.call('POST', '/updates/update', {})).status).toBe(404);
    const whatsNew = await t.call<{ id: string; version: string }[]>('GET', '/updates/whatsnew');
    expect(whatsNew.body.map((w) => w.version)).toContain('12.4.1');
    expect((await t.call('DELETE', '/updates/whatsnew/12.4.1')).status).toBe(204);
    expect((await t.call<{ id: string }[]>('GET', '/updates/whatsnew')).body.map((w) => w.id)).not.toContain('12.4.1');
    expect((await t.call('DELETE', '/updates/whatsnew/12.4.1')).status).toBe(404);
    const notifications = await t.call<Record<string, { excerpt: string }>>('GET', '/notifications/notification');
    expect(Object.values(notifications.body).map((n) => n.excerpt)).toContain('Hearth 12.4.1 is installed.');
  });

  it('aborts an install in progress', async () => {
    await t.call('PUT', '/updates/option/channel', { value: 'alpha' });
    const started = await t.call<State>('POST', '/updates/update', { silent: true });
    expect(started.body.version).toBe('12.6.0-alpha.1');
    const aborted = await t.call<State>('DELETE', '/updates/update');
    expect(aborted.body).toMatchObject({ status: 'aborted', currentVersion: '12.4.1' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await t.call<State>('GET', '/updates/state')).body.status).toBe('aborted');
  });
});
