import { describe, expect, it } from 'vitest';
import { DomainBus } from './bus';
import { FakeClock } from './clock';

describe('FakeClock', () => {
  it('runs timers in due order as time moves, each at its own time, and never goes back', async () => {
    const clock = new FakeClock(1_000);
    const seen: [string, number][] = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 200);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 100);
    const cancel = clock.setTimeout(() => seen.push(['never', clock.now()]), 150);
    const stop = clock.setInterval(() => seen.push(['tick', clock.now()]), 120);
    cancel();
    await clock.advance(250);
    expect(seen).toEqual([
      ['a', 1_100],
      ['tick', 1_120],
      ['b', 1_200],
      ['tick', 1_240],
    ]);
    stop();
    expect(clock.pending).toBe(0);
    expect(clock.now()).toBe(1_250);
    await expect(clock.set(0)).rejects.toThrow(RangeError);
  });
});

describe('DomainBus', () => {
  it('delivers typed payloads, removes listeners by owner, and isolates a throwing listener', () => {
    const errors: unknown[] = [];
    const bus = new DomainBus((error) => errors.push(error));
    const seen: string[] = [];
    bus.on('zone.active', 'insights', ({ zoneId, active }) => seen.push(`insights:${zoneId}:${active}`));
    bus.on('zone.active', 'flow', () => {
      throw new Error('listener failed');
    });
    const off = bus.on('zone.active', 'realtime', ({ zoneId }) => seen.push(`realtime:${zoneId}`));
    bus.emit('zone.active', { zoneId: 'z1', active: true });
    expect(seen).toEqual(['insights:z1:true', 'realtime:z1']);
    expect(errors).toHaveLength(1);
    off();
    bus.off('flow');
    expect(bus.size).toBe(1);
    bus.off('insights');
    bus.emit('zone.active', { zoneId: 'z2', active: false });
    expect(seen).toHaveLength(2);
    expect(bus.size).toBe(0);
  });
});
