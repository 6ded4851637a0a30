import { HearthError } from '@hearth/contract';
import type { CapabilityDefinition } from '../../runtime/capabilities';
import { type CapabilityFlowCard, capabilityFlowCards } from '../../runtime/ecosystem';
import type { FlowCardDefinition } from '../flow/registry';
import type { DeviceController } from './control';

type Value = string | number | boolean | null;
type Source = Parameters<DeviceController['setCapabilityValue']>[4];

/**
 * What the ecosystem's actions without arguments set their capability to (its definitions give ids and titles,
 * not what they do): `toggle` inverts the current value. Button-like capabilities (not getable) are pressed.
 */
const SETS: Record<string, Value | 'toggle'> = {
  'onoff/on': true,
  'onoff/off': false,
  'onoff/toggle': 'toggle',
  'onoff/open': true,
  'onoff/close': false,
  'locked/lock': true,
  'locked/unlock': false,
  'garagedoor_closed/close': true,
  'garagedoor_closed/open': false,
  'garagedoor_closed/toggle': 'toggle',
  'windowcoverings_closed/close': true,
  'windowcoverings_closed/open': false,
  'windowcoverings_closed/toggle': 'toggle',
  'volume_mute/volume_mute': true,
  'volume_mute/volume_unmute': false,
  'volume_mute/volume_mute_toggle': 'toggle',
  'speaker_playing/play': true,
  'speaker_playing/pause': false,
  'speaker_playing/toggle_playing': 'toggle',
  'speaker_shuffle/set_shuffle_true': true,
  'speaker_shuffle/set_shuffle_false': false,
  'oscillating/enable_oscillating': true,
  'oscillating/disable_oscillating': false,
  'oscillating/toggle_oscillating': 'toggle',
  'evcharger_charging/evcharger_charging_start': true,
  'evcharger_charging/evcharger_charging_stop': false,
  'power_boost/enable': true,
  'power_boost/disable': false,
  'power_boost/toggle': 'toggle',
  'vacuumcleaner_state/clean': 'cleaning',
  'vacuumcleaner_state/spot_clean': 'spot_cleaning',
  'vacuumcleaner_state/dock': 'docked',
  'vacuumcleaner_state/stop': 'stopped',
  'mower_state/mower_state_mow': 'mowing',
  'mower_state/mower_state_pause': 'paused',
  'mower_state/mower_state_dock': 'docked',
};

interface Device {
  readonly id: string;
  readonly class: string;
}

/** What an action card does with the device's current value and the card's arguments, or `null` if Hearth cannot say. */
function actionEffect(
  capability: CapabilityDefinition,
  card: CapabilityFlowCard,
): ((current: Value, args: Record<string, unknown>) => unknown) | null {
  const [arg, ...more] = card.args;
  if (more.length > 0 || arg?.type === 'color') return null;
  if (arg && card.id.endsWith('_relative')) {
    const clamp = (n: number) => Math.min(capability.max ?? n, Math.max(capability.min ?? n, n));
    return (current, args) => clamp((typeof current === 'number' ? current : 0) + Number(args[arg.name]));
  }
  if (arg) return (_current, args) => args[arg.name];
  const set = SETS[`${capability.id}/${card.id}`];
  if (set === 'toggle') return (current) => current !== true;
  if (set !== undefined) return () => set;
  if (capability.type === 'boolean' && !capability.getable) return () => true;
  return null;
}

/** Whether a condition card holds for the device's current value, or `null` if Hearth cannot say. */
function conditionTest(
  capability: CapabilityDefinition,
  card: CapabilityFlowCard,
): ((current: Value, args: Record<string, unknown>) => boolean) | null {
  const [arg, ...more] = card.args;
  if (!arg && capability.type === 'boolean') return (current) => current === true;
  if (arg && more.length === 0 && arg.type === 'dropdown') return (current, args) => current === args[arg.name];
  return null;
}

/**
 * The condition and action cards the ecosystem defines for one capability of a device (`on`, `off`, `toggle`,
 * `dim`, `vacuumcleaner_state_is`, …), with its ids, titles and arguments, for those Hearth can say what they
 * do. Cards limited to device classes are offered to devices of those classes only.
 */
export function ecosystemCapabilityCards(
  device: Device,
  capability: CapabilityDefinition,
  uri: string,
  current: () => Value,
  write: (value: unknown, duration: number | undefined, source: Source) => Promise<unknown>,
): FlowCardDefinition[] {
  const { conditions, actions } = capabilityFlowCards(capability.id);
  const offered = (card: CapabilityFlowCard) => !card.classes || card.classes.includes(device.class);
  const cards: FlowCardDefinition[] = [];
  for (const card of conditions.filter(offered)) {
    const test = conditionTest(capability, card);
    if (test)
      cards.push({
        type: 'condition',
        uri,
        id: card.id,
        title: card.title,
        args: [...card.args],
        run: ({ args }) => test(current(), args),
      });
  }
  for (const card of actions.filter(offered)) {
    const effect = actionEffect(capability, card);
    if (!effect) continue;
    cards.push({
      type: 'action',
      uri,
      id: card.id,
      title: card.title,
      args: [...card.args],
      duration: capability.type === 'number',
      run: async ({ args, duration, source }) => {
        if (!source) throw new HearthError('invalid_parameter', 'A device card runs for a flow or a person');
        return { [capability.id]: await write(effect(current(), args), duration, source) };
      },
    });
  }
  return cards;
}

/** A card that may replace a retired one: its id, its arguments, and whether it is one the ecosystem defines. */
interface Candidate {
  readonly id: string;
  readonly args: Record<string, unknown>;
}

/**
 * The ecosystem's cards that do what one of Hearth's retired device card ids did (`onoff_set` with `true` is
 * `on`, `dim_set` is `dim` with its `dim` argument, the `onoff` condition is `on`, `onoff_toggle` is `toggle`,
 * `thermostat_mode_equals` is `thermostat_mode_is`, …), best first; the caller keeps the first its device is
 * offered. None for an id that is no retired one, or for a value only a token gives (`onoff_set` with a token).
 */
export function retiredCardCandidates(
  type: 'trigger' | 'condition' | 'action',
  id: string,
  args: Record<string, unknown>,
  capabilityIds: readonly string[],
): Candidate[] {
  for (const capabilityId of capabilityIds.filter((c) => !c.includes('.'))) {
    const { conditions, actions } = capabilityFlowCards(capabilityId);
    const plain = (cards: readonly CapabilityFlowCard[]) => cards.filter((card) => card.args.length === 0);
    const oneArg = (cards: readonly CapabilityFlowCard[], argType?: string) =>
      cards.filter(
        (card) =>
          card.args.length === 1 &&
          card.args[0]?.type !== 'color' &&
          (!argType || card.args[0]?.type === argType) &&
          !card.id.endsWith('_relative'),
      );
    const renamed = (card: CapabilityFlowCard) => ({ id: card.id, args: { [card.args[0]?.name as string]: args.value } });
    if (type === 'action' && id === `${capabilityId}_set`) {
      const single = oneArg(actions);
      if (single.length > 0) return 'value' in args ? single.map(renamed) : [];
      return plain(actions)
        .filter((card) => SETS[`${capabilityId}/${card.id}`] === args.value)
        .map((card) => ({ id: card.id, args: {} }));
    }
    if (type === 'action' && id === `${capabilityId}_toggle`)
      return plain(actions)
        .filter((card) => SETS[`${capabilityId}/${card.id}`] === 'toggle')
        .map((card) => ({ id: card.id, args: {} }));
    if (type === 'condition' && id === capabilityId && !conditions.some((card) => card.id === capabilityId))
      return plain(conditions).map((card) => ({ id: card.id, args: {} }));
    if (type === 'condition' && id === `${capabilityId}_equals`)
      return 'value' in args ? oneArg(conditions, 'dropdown').map(renamed) : [];
  }
  return [];
}

/**
 * Whether Hearth's own card `id` is retired for a capability: the ecosystem's cards do all it did (both values of
 * a boolean, any value of a number or enum through the card's one argument), so it is not offered any more.
 */
export function isRetiredCard(type: 'trigger' | 'condition' | 'action', id: string, capabilityId: string): boolean {
  const some = (args: Record<string, unknown>) => retiredCardCandidates(type, id, args, [capabilityId]).length > 0;
  if (type === 'action' && id === `${capabilityId}_set`)
    return some({ value: 0 }) || (some({ value: true }) && some({ value: false }));
  return some({ value: 0 });
}
