import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hubWithAppDevice } from '../../testing/devkit';
import type { TestHub } from '../../testing/hub';

const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'process', 'fixtures', 'com.test.camera');
const BURST = 300;
let t: TestHub;
let deviceId: string;
/** Writes of `chime_tone` the hub confirmed for the device: each one the app's process carried out. */
let confirmed = 0;

beforeAll(async () => {
  ({ t, deviceId } = await hubWithAppDevice(fixture, 'com.test.camera', 'doorbell'));
  t.hub.context.bus.on('device.capability', 'app-writes-test', (change) => {
    if (change.deviceId === deviceId && change.capabilityId === 'chime_tone') confirmed++;
  });
});
afterAll(() => t?.stop());

it('takes a burst of writes at a device served by an app process: coalesced, all answered, the device still answering', async () => {
  const writes = Array.from({ length: BURST }, (_, i) =>
    fetch(`${t.url}/api/manager/devices/device/${deviceId}/capability/chime_tone`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: i % 2 === 0 ? 'ding' : 'dong' }),
    }).then(async (response) => ({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    })),
  );
  // The device answers a read while the burst is on, before the writes are all done.
  let burstDone = false;
  void Promise.all(writes).then(() => {
    burstDone = true;
  });
  const read = await t.call<{ id: string }>('GET', `/devices/device/${deviceId}`);
  expect(read.status).toBe(200);
  expect(read.body.id).toBe(deviceId);
  expect(burstDone).toBe(false);
  const answers = await Promise.all(writes);
  // Every caller had its answer: applied, or (beyond the queue's bound) refused with when to come back.
  for (const answer of answers) {
    expect([204, 429]).toContain(answer.status);
    if (answer.status === 429) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
  // One write of `chime_tone` at a time reached the app; waiting ones merged into the latest value, so fewer than
  // the burst reached it. How many fewer depends on how fast the app answers against how fast the writes arrive
  // (about 100-190 here, by the machine's load); the exact merging and the bound are control.test.ts's, on a
  // device whose writes wait until the test lets them go.
  expect(confirmed).toBeGreaterThan(0);
  expect(confirmed).toBeLessThan(BURST);
  // The device took the burst and answers the next write and read at once.
  expect((await t.call('PUT', `/devices/device/${deviceId}/capability/chime_tone`, { value: 'dong' })).status).toBe(204);
  const after = await t.call<{ capabilitiesObj: { chime_tone: { value: string } } }>('GET', `/devices/device/${deviceId}`);
  expect(after.body.capabilitiesObj.chime_tone.value).toBe('dong');
});
