import { settingProblem } from '@hearth/contract/device-settings';
import { type FormEvent, type ReactElement, useState } from 'react';
import { strings } from '../app/strings';
import { messageOf } from '../lib/errors';
import { type Loaded, useAsync } from '../lib/useLoad';
import { useNotify } from './Notices';
import { type Setting, SettingsFields, settingValue } from './SettingField';

/** A settings form's source: how its settings load, how changed values are stored, what to name in the notice. */
export interface SettingsSource {
  load(): Promise<Setting[]>;
  /** What `load` depends on: the settings load again when one changes. */
  deps: readonly unknown[];
  save(changed: Record<string, unknown>): Promise<void>;
  /** Named in the "saved" notice (the device's or the app's name). */
  savedName: string;
  /** The field a refusal of the hub names, with the refusal's words for it; `null` puts it above the form. */
  refusedField?(message: string): { id: string; message: string } | null;
}

/** The settings that can be changed (labels and groups only show). */
export const editableSettings = (settings: Setting[]) => settings.filter((s) => s.type !== 'label' && s.type !== 'group');

/**
 * A settings form (a device's, an app's): each setting by its type, checked as the hub checks it (the same check,
 * from the contract) before anything is sent, only what changed sent; a problem lands on its field, which gets the
 * focus, and after saving the form loads again from what was stored.
 */
export function useSettingsForm(source: SettingsSource): {
  settings: Loaded<Setting[]>;
  retry(): void;
  form(settings: Setting[]): ReactElement;
} {
  const notify = useNotify();
  const [version, setVersion] = useState(0);
  const settings = useAsync(source.load, [...source.deps, version]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const retry = () => setVersion((v) => v + 1);

  async function save(event: FormEvent<HTMLFormElement>, list: Setting[]) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const editable = editableSettings(list);
    const changed: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const setting of editable) {
      const value = settingValue(setting, data);
      if (Object.is(value, setting.value) || value === setting.value) continue;
      const problem = settingProblem(setting, value);
      if (problem) found[setting.id] = problem;
      else changed[setting.id] = value;
    }
    setErrors(found);
    setFormError(null);
    const first = Object.keys(found)[0];
    if (first !== undefined) {
      document.getElementById(`setting-${first}`)?.focus();
      return;
    }
    if (Object.keys(changed).length === 0) return notify('info', strings.settingsForm.unchanged);
    setBusy(true);
    try {
      await source.save(changed);
      notify('info', strings.settingsForm.saved(source.savedName));
      retry();
    } catch (error) {
      const message = messageOf(error);
      const refused = source.refusedField?.(message);
      if (refused && editable.some((s) => s.id === refused.id)) setErrors({ [refused.id]: refused.message });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  const form = (list: Setting[]) => (
    <form className="card" onSubmit={(event) => void save(event, list)} noValidate key={version}>
      <SettingsFields settings={list} errors={errors} formError={formError} busy={busy} />
    </form>
  );
  return { settings, retry, form };
}
