import { performance } from 'node:perf_hooks';
import { fmt, line, percentile } from './report';

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

/** One way of making `count` writes: answers their latencies (ms, sorted). */
type Writes = (count: number) => Promise<number[]>;

/**
 * The radio benchmarks' comparison: both paths warmed up (JIT, sessions), then `count` writes through the bare
 * stack and `count` through the hub, one after another; prints p50/p99 and throughput of each and the ratios hub /
 * bare against the goal (throughput ≥ 80 % of the bare stack's, p99 < 2×).
 */
export async function compareWrites(
  count: number,
  bare: { label: string; writes: Writes },
  hub: { label: string; writes: Writes },
  stackName: string,
): Promise<void> {
  await hub.writes(30);
  await bare.writes(30);
  const bareStart = performance.now();
  const bareLatencies = await bare.writes(count);
  const bareSeconds = (performance.now() - bareStart) / 1000;
  const hubStart = performance.now();
  const hubLatencies = await hub.writes(count);
  const hubSeconds = (performance.now() - hubStart) / 1000;
  const describe = (l: number[], seconds: number) =>
    `p50 ${fmt(percentile(l, 50), 2)} ms  p99 ${fmt(percentile(l, 99), 2)} ms  ${fmt(l.length / seconds, 0)} writes/s`;
  line(bare.label, describe(bareLatencies, bareSeconds));
  line(hub.label, describe(hubLatencies, hubSeconds));
  const throughput = bareSeconds / hubSeconds;
  const p99 = percentile(hubLatencies, 99) / percentile(bareLatencies, 99);
  line('ratio hub / bare', `throughput ${fmt(throughput * 100, 0)} %  p99 ${fmt(p99)}×`, {
    text: `throughput ≥ 80 % of ${stackName} alone, p99 < 2×`,
    met: throughput >= 0.8 && p99 < 2,
  });
}
