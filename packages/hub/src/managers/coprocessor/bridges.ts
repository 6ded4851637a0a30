import { HearthError } from '@hearth/contract';
import type { HubContext } from '../../platform/context';

type Json = Record<string, unknown>;

/** Bridges paired with the hub's radio coprocessor, and its debug logging per peripheral. */
export class Bridges {
  constructor(private readonly context: HubContext) {}

  list(): Json[] {
    return this.context.settings.get<Json[]>('coprocessor.bridges', []);
  }

  pair(serialHash: string): Json {
    const bridges = this.list();
    if (bridges.some((b) => b.serialHash === serialHash.toLowerCase()))
      throw new HearthError('conflict', 'This bridge is already paired');
    const bridge = {
      id: `bridge-${serialHash.slice(0, 8).toLowerCase()}`,
      serialHash: serialHash.toLowerCase(),
      pairedAt: new Date(this.context.clock.now()).toISOString(),
      state: 'connected',
      radios: ['433', '868', 'infrared', 'zigbee'],
    };
    this.context.settings.set('coprocessor.bridges', [...bridges, bridge]);
    return bridge;
  }

  setDebug(peripheral: string | undefined, enabled: boolean): Json {
    const debug = {
      ...this.context.settings.get<Record<string, boolean>>('coprocessor.debug', {}),
      [peripheral ?? 'all']: enabled,
    };
    this.context.settings.set('coprocessor.debug', debug);
    return debug;
  }
}
