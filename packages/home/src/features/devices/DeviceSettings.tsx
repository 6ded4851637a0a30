import { settingProblem } from '@hearth/contract/device-settings';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { type Setting, SettingsFields, settingValue } from '../../components/SettingField';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import type { Device } from './capabilities';

const t = strings.device;

/** The hub names a refused setting `settings.<id>` in its message; that message belongs on that field. */
const REFUSED = /^Invalid Parameter: settings\.([^.\s]+)\. (.+)$/;

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
      const value = settingValue(setting, form);
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
    if (Object.keys(changed).length === 0) return notify('info', strings.settingsForm.unchanged);
    setBusy(true);
    try {
      await hub.devices.setDeviceSettings({ id: device.id, settings: changed });
      notify('info', strings.settingsForm.saved(device.name));
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
        <SettingsFields settings={settings.data} errors={errors} formError={formError} busy={busy} />
      </form>
    </section>
  );
}
