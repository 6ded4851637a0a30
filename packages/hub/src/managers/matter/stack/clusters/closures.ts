import { DoorLockClient } from '@matter/main/behaviors/door-lock';
import { WindowCoveringClient } from '@matter/main/behaviors/window-covering';
import { type ClusterCapability, featuresOf, numberOrNull, rounded } from './cluster-capability';

/** Window Covering's movement status (each 2 bits): 0 stopped, 1 opening, 2 closing. */
const MOVEMENT: Readonly<Record<number, 'idle' | 'up' | 'down'>> = { 0: 'idle', 1: 'up', 2: 'down' };

/** Door Lock's LockState: 0 not fully locked, 1 locked, 2 unlocked, 3 unlatched. */
const LOCK_STATE_LOCKED = 1;

export const CLOSURES: readonly ClusterCapability[] = [
  {
    // Matter counts the lift in 0.01 % closed (0 fully open); the ecosystem's windowcoverings_set is 1 when open.
    capability: 'windowcoverings_set',
    client: WindowCoveringClient,
    attributes: ['currentPositionLiftPercent100ths'],
    carriedBy: (state) => featuresOf(state).positionAwareLift === true,
    toCapability: (state) => {
      const closed = numberOrNull(state.currentPositionLiftPercent100ths);
      return closed === null ? null : rounded(1 - closed / 10_000, 2);
    },
    write: async (endpoint, value) => {
      const open = Math.min(1, Math.max(0, Number(value)));
      await endpoint.commandsOf(WindowCoveringClient).goToLiftPercentage({
        liftPercent100thsValue: Math.round((1 - open) * 10_000),
      });
    },
  },
  {
    capability: 'windowcoverings_state',
    client: WindowCoveringClient,
    attributes: ['operationalStatus'],
    toCapability: (state) => {
      const status = state.operationalStatus as { global?: number } | null | undefined;
      return typeof status?.global === 'number' ? (MOVEMENT[status.global] ?? null) : null;
    },
    write: async (endpoint, value) => {
      const commands = endpoint.commandsOf(WindowCoveringClient);
      if (value === 'up') await commands.upOrOpen();
      else if (value === 'down') await commands.downOrClose();
      else await commands.stopMotion();
    },
  },
  {
    capability: 'locked',
    client: DoorLockClient,
    attributes: ['lockState'],
    toCapability: (state) => {
      const lockState = numberOrNull(state.lockState);
      return lockState === null ? null : lockState === LOCK_STATE_LOCKED;
    },
    // Lock and unlock are timed commands in Matter (a replayed command is refused); matter.js sends them so.
    write: async (endpoint, value) => {
      const commands = endpoint.commandsOf(DoorLockClient);
      await (value === true ? commands.lockDoor({}) : commands.unlockDoor({}));
    },
  },
];
