/**
 * A simple model of a room heated by an electric floor: the room loses heat towards its base temperature (what it
 * settles at with the heating off) and, while the element heats, gains heat in proportion to the element's power.
 * Both act with the same time constant, so the temperature approaches an equilibrium exponentially:
 *
 *   equilibrium = base + (heating ? GAIN_PER_KW × power : 0)
 *   T(t + dt)   = equilibrium + (T(t) − equilibrium) × e^(−dt / TIME_CONSTANT)
 *
 * The solution is exact for any step, so a late tick (the app was busy, the hub restarted) lands where a series of
 * short ones would have. The heating switches with a margin around the target (hysteresis), like a real
 * thermostat, so it does not flap on every tick. Deterministic: the same state and time give the same answer.
 */

/** Seconds in which the room covers about 63 % of the way to its equilibrium (half an hour: a small, quick room). */
const TIME_CONSTANT_S = 1800;
/** Degrees the room would rise above its base with one kilowatt heating for ever. */
const GAIN_PER_KW = 10;
/** What the electronics draw while the element is off. */
const STANDBY_W = 1.5;

/**
 * Whether the element should heat now: never with the mode off; below the target minus the margin it starts, at
 * the target plus the margin it stops, and in between it keeps doing what it did.
 */
function shouldHeat({ temperature, target, mode, heating, hysteresis }) {
  if (mode === 'off') return false;
  if (temperature <= target - hysteresis) return true;
  if (temperature >= target + hysteresis) return false;
  return heating;
}

/**
 * Moves the model on by `seconds` and answers the new state: the temperature (°C, unrounded), whether it heats,
 * the power it draws (W) and the energy it used in total (kWh).
 */
function step(state, { seconds, target, mode, heaterPower, baseTemperature, hysteresis }) {
  const heating = shouldHeat({ temperature: state.temperature, target, mode, heating: state.heating, hysteresis });
  const equilibrium = baseTemperature + (heating ? (GAIN_PER_KW * heaterPower) / 1000 : 0);
  const temperature = equilibrium + (state.temperature - equilibrium) * Math.exp(-seconds / TIME_CONSTANT_S);
  const power = heating ? heaterPower : STANDBY_W;
  const energy = state.energy + (power / 1000) * (seconds / 3600);
  return { temperature, heating, power, energy };
}

module.exports = { shouldHeat, step, TIME_CONSTANT_S, GAIN_PER_KW, STANDBY_W };
