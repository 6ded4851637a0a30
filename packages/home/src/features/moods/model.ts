import type { hubOperations, OperationResult } from '@hearth/contract';
import type { Device } from '../devices/capabilities';

export type Mood = OperationResult<typeof hubOperations.moods.getMood>;

export interface Zone {
  id: string;
  name: string;
  parent: string | null;
}

/** Capabilities a mood keeps: what a person sets to make a room feel a way, not momentary buttons or sensors. */
const MOOD_CAPABILITIES = /^(onoff|dim|light_.+|target_temperature|windowcoverings_.+|volume_set|speaker_playing)$/;

/** Each device's settable values as they are now, the way a mood stores them (devices keyed by id). */
export function currentState(devices: Device[]): Mood['devices'] {
  const state: Mood['devices'] = {};
  for (const device of devices) {
    const values: Record<string, string | number | boolean> = {};
    for (const [id, cap] of Object.entries(device.capabilitiesObj ?? {})) {
      const { value } = cap as { value?: unknown; setable?: boolean };
      if (!(cap as { setable?: boolean }).setable || !MOOD_CAPABILITIES.test(id)) continue;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[id] = value;
    }
    if (Object.keys(values).length > 0) state[device.id] = values;
  }
  return state;
}
