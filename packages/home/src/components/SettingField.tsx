import type { DeclaredSetting } from '@hearth/contract/device-settings';
import { strings } from '../app/strings';
import { FieldError } from './FieldError';

/** A declared setting (a driver's device setting, an app's setting) in the hub's language, with its value. */
export interface Setting extends DeclaredSetting {
  id: string;
  label: string;
  hint?: string;
  units?: string;
  step?: number;
  values?: { id: string; label: string }[];
  value: unknown;
}

/** A field's text as the value its type takes (a number field gives a number; an empty one is no number). */
export function settingValue(setting: Setting, form: FormData): unknown {
  const raw = form.get(setting.id);
  if (setting.type === 'checkbox') return raw === 'on';
  if (setting.type === 'number') return raw === '' || raw === null ? Number.NaN : Number(raw);
  return String(raw ?? '');
}

/** One setting's field by its type, with its hint and the error found for it. */
export function SettingField({ setting, error }: { setting: Setting; error: string | undefined }) {
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

/** A settings form's body: each setting's field (labels and groups as text), the form's error and its Save button. */
export function SettingsFields(props: {
  settings: Setting[];
  errors: Record<string, string>;
  formError: string | null;
  busy: boolean;
}) {
  return (
    <>
      {props.settings.map((setting) =>
        setting.type === 'label' || setting.type === 'group' ? (
          <p key={setting.id} className="muted">
            {setting.label}
          </p>
        ) : (
          <SettingField key={setting.id} setting={setting} error={props.errors[setting.id]} />
        ),
      )}
      {props.formError ? (
        <p role="alert" className="form-error">
          {props.formError}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={props.busy}>
        {strings.settingsForm.save}
      </button>
    </>
  );
}
