/**
 * A driver's device setting as its manifest declares it (the parts that decide what a value may be), and the one
 * check of a value against it: the hub refuses with it, and front ends show its words on the field before asking.
 */
export interface DeclaredSetting {
  type: string;
  min?: number;
  max?: number;
  values?: readonly { id: string }[];
}

/** The longest text a text, textarea or password setting takes. */
export const SETTING_TEXT_MAX_LENGTH = 2048;

/** Why `value` does not fit `setting`, in words for people; `null` when it fits. */
export function settingProblem(setting: DeclaredSetting, value: unknown): string | null {
  switch (setting.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Expected a number';
      if (setting.min !== undefined && value < setting.min) return `Must be at least ${setting.min}`;
      if (setting.max !== undefined && value > setting.max) return `Must be at most ${setting.max}`;
      return null;
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'Expected a boolean';
    case 'dropdown':
      return setting.values?.some((v) => v.id === value)
        ? null
        : `Expected one of ${setting.values?.map((v) => v.id).join(', ')}`;
    default:
      return typeof value === 'string' && value.length <= SETTING_TEXT_MAX_LENGTH
        ? null
        : `Expected a string of at most ${SETTING_TEXT_MAX_LENGTH} characters`;
  }
}
