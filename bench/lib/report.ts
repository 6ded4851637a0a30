/** Helpers every benchmark uses to print its figures the same way. */

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const fmt = (value: number, digits = 1): string => value.toFixed(digits);

/** Prints `label: value (goal)` and whether the goal is met, in one aligned line. */
export function line(label: string, value: string, goal?: { text: string; met: boolean }): void {
  const suffix = goal ? `   goal ${goal.text}: ${goal.met ? 'met' : 'NOT met'}` : '';
  console.log(`  ${label.padEnd(44)} ${value}${suffix}`);
}
