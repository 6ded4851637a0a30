import { useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import type { Capability, Device } from './capabilities';

/**
 * One capability's value with an optimistic write: the new value shows at once, the hub's answer (the driver
 * confirmed it) keeps it, and a refusal rolls it back with the hub's reason. Live updates from elsewhere win as soon
 * as no write of ours is under way.
 */
export function useCapability(device: Device, cap: Capability) {
  const { hub } = useHub();
  const notify = useNotify();
  const [pending, setPending] = useState<{ value: unknown } | null>(null);
  const value = pending ? pending.value : cap.value;

  async function set(next: unknown) {
    setPending({ value: next });
    try {
      await hub.devices.setCapabilityValue({ deviceId: device.id, capabilityId: cap.id, value: next as never });
    } catch (error) {
      notify('error', strings.home.refused(device.name, messageOf(error)));
    } finally {
      setPending(null);
    }
  }
  return { value, set, busy: pending !== null };
}
