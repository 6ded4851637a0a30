import { performance } from 'node:perf_hooks';

/**
 * Latencies (ms, sorted) of `count` `PUT …/capability/onoff` writes to one device of a hub, one after another,
 * alternating on and off; each answers once the device's driver confirmed it.
 */
export async function onoffWrites(hubUrl: string, headers: Record<string, string>, deviceId: string, count: number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const answer = await fetch(`${hubUrl}/api/manager/devices/device/${deviceId}/capability/onoff`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ value: i % 2 === 0 }),
    });
    await answer.arrayBuffer();
    if (answer.status !== 204) throw new Error(`write ${i} answered ${answer.status}`);
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}
