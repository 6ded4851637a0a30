import { type DeclaredSetting, settingProblem } from '@hearth/contract/device-settings';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { FieldError } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import type { Device } from './capabilities';

const t = strings.device;

/** One entry of the hub's `settings_obj`: the driver's declaration in the hub's language, with its value. */
interface Setting extends DeclaredSetting {
  id: string;
  label: string;
  hint?: string;
  units?: string;
  step?: number;
  values?: { id: string; label: string }[];
  value: unknown;
}

/** The hub names a refused setting `settings.<id>` in its message; that message belongs on that field. */
const REFUSED = /^Invalid Parameter: settings\.([^.\s]+)\. (.+)$/;

/** A field's text as the value its type takes (a number field gives a number; an empty one is no number). */
function fieldValue(setting: Setting, form: FormData): unknown {
  const raw = form.get(setting.id);
  if (setting.type === 'checkbox') return raw === 'on';
  if (setting.type === 'number') return raw === '' || raw === null ? Number.NaN : Number(raw);
  return String(raw ?? '');
}

/**
 * The driver's settings form: each setting by its type, checked as the hub checks it (the same check, from the
 * contract) before anything is sent; a refusal of the hub or the app lands on the field it names.
 */
export function DeviceSettings({ device }: { device: Device }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [version, setVersion] = useState(0);
  const settings = useAsync(
    async () => (await hub.devices.getDeviceSettingsObj({ id: device.id })) as unknown as Setting[],
    [hub, device.id, version],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (settings.state === 'loading') return <Loading />;
  if (settings.state === 'failed') return <Failed error={settings.error} retry={() => setVersion((v) => v + 1)} />;
  const editable = settings.data.filter((s) => s.type !== 'label' && s.type !== 'group');
  if (editable.length === 0) return null;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const changed: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const setting of editable) {
      const value = fieldValue(setting, form);
      if (Object.is(value, setting.value) || value === setting.value) continue;
      const problem = settingProblem(setting, value);
      if (problem) found[setting.id] = problem;
      else changed[setting.id] = value;
    }
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      document.getElementById(`setting-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    if (Object.keys(changed).length === 0) return notify('info', t.settingsUnchanged);
    setBusy(true);
    try {
      await hub.devices.setDeviceSettings({ id: device.id, settings: changed });
      notify('info', t.settingsSaved(device.name));
      setVersion((v) => v + 1);
    } catch (error) {
      const message = messageOf(error);
      const refused = REFUSED.exec(message);
      if (refused?.[1] && editable.some((s) => s.id === refused[1])) setErrors({ [refused[1]]: refused[2] as string });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="device-settings">
      <h2 id="device-settings">{t.settings}</h2>
      <form className="card" onSubmit={(event) => void save(event)} noValidate key={version}>
        {settings.data.map((setting) =>
          setting.type === 'label' || setting.type === 'group' ? (
            <p key={setting.id} className="muted">
              {setting.label}
            </p>
          ) : (
            <SettingField key={setting.id} setting={setting} error={errors[setting.id]} />
          ),
        )}
        {formError ? (
          <p role="alert" className="form-error">
            {formError}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={busy}>
          {t.saveSettings}
        </button>
      </form>
    </section>
  );
}

function SettingField({ setting, error }: { setting: Setting; error: string | undefined }) {
  const id = `setting-${setting.id}`;
  const described = [setting.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  const common = {
    id,
    name: setting.id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
  let control: React.ReactNode;
  if (setting.type === 'checkbox') control = <input type="checkbox" {...common} defaultChecked={setting.value === true} />;
  else if (setting.type === 'dropdown')
    control = (
      <select {...common} defaultValue={String(setting.value ?? '')}>
        {(setting.values ?? []).map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    );
  else if (setting.type === 'number')
    control = (
      <input
        type="number"
        inputMode="decimal"
        {...common}
        min={setting.min}
        max={setting.max}
        step={setting.step ?? 'any'}
        defaultValue={typeof setting.value === 'number' ? setting.value : ''}
      />
    );
  else if (setting.type === 'textarea') control = <textarea {...common} defaultValue={String(setting.value ?? '')} />;
  else
    control = (
      <input type={setting.type === 'password' ? 'password' : 'text'} {...common} defaultValue={String(setting.value ?? '')} />
    );
  return (
    <div className={`field${setting.type === 'checkbox' ? ' field--checkbox' : ''}`}>
      <label htmlFor={id}>
        {setting.label}
        {setting.units && !setting.label.includes(`(${setting.units})`) ? ` (${setting.units})` : ''}
      </label>
      {control}
      {setting.hint ? (
        <span id={`${id}-hint`} className="muted">
          {setting.hint}
        </span>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
