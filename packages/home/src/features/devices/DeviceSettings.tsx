import { strings } from '../../app/strings';
import type { Setting } from '../../components/SettingField';
import { Failed, Loading } from '../../components/Status';
import { editableSettings, useSettingsForm } from '../../components/useSettingsForm';
import { useHub } from '../../lib/hub';
import type { Device } from './capabilities';

const t = strings.device;

/** The hub names a refused setting `settings.<id>` in its message; that message belongs on that field. */
const REFUSED = /^Invalid Parameter: settings\.([^.\s]+)\. (.+)$/;

/** The driver's settings form (see useSettingsForm); a refusal of the hub or the app lands on the field it names. */
export function DeviceSettings({ device }: { device: Device }) {
  const { hub } = useHub();
  const { settings, retry, form } = useSettingsForm({
    load: async () => (await hub.devices.getDeviceSettingsObj({ id: device.id })) as unknown as Setting[],
    deps: [hub, device.id],
    save: async (changed) => {
      await hub.devices.setDeviceSettings({ id: device.id, settings: changed });
    },
    savedName: device.name,
    refusedField: (message) => {
      const refused = REFUSED.exec(message);
      return refused?.[1] && refused[2] ? { id: refused[1], message: refused[2] } : null;
    },
  });
  if (settings.state === 'loading') return <Loading />;
  if (settings.state === 'failed') return <Failed error={settings.error} retry={retry} />;
  if (editableSettings(settings.data).length === 0) return null;
  return (
    <section aria-labelledby="device-settings">
      <h2 id="device-settings">{t.settings}</h2>
      {form(settings.data)}
    </section>
  );
}
