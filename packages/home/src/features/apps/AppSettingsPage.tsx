import type { Manager } from '@hearth/client/browser';
import type { AppItem } from '@hearth/contract';
import { HOME_PAGES } from '@hearth/contract/provider';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import type { Setting } from '../../components/SettingField';
import { Failed, Loading } from '../../components/Status';
import { useSettingsForm } from '../../components/useSettingsForm';
import { useHub, useLiveItems } from '../../lib/hub';

const t = strings.apps;

type Declared = Omit<Setting, 'value'>;

/**
 * An app's settings page: the form its manifest declares (the hub gives it as `settingsForm`), filled with the
 * values the app stored, checked as device settings are before anything is sent; each changed setting is stored
 * with `setAppSetting`, which the app hears.
 */
export function AppSettingsPage({ id }: { id: string }) {
  const { hub } = useHub();
  const apps = useLiveItems<AppItem>(hub.manager('apps') as Manager, 'app');
  if (apps.state === 'failed') return <Failed error={apps.error} />;
  if (apps.state === 'loading') return <Loading />;
  const app = apps.items.find((item) => item.id === id);
  if (!app)
    return (
      <>
        <h1 tabIndex={-1}>{strings.errors.notFound}</h1>
        <Link href={HOME_PAGES.apps}>{t.back}</Link>
      </>
    );
  return (
    <>
      <p>
        <Link href={HOME_PAGES.apps}>{t.back}</Link>
      </p>
      <h1 tabIndex={-1}>{t.settingsOf(app.name)}</h1>
      {(app.settingsForm ?? []).length === 0 ? (
        <p className="muted">{t.noSettings}</p>
      ) : (
        <SettingsForm app={app} form={app.settingsForm as Declared[]} />
      )}
    </>
  );
}

function SettingsForm({ app, form: declared }: { app: AppItem; form: Declared[] }) {
  const { hub } = useHub();
  const { settings, retry, form } = useSettingsForm({
    load: async () => {
      const values = (await hub.apps.getAppSettings({ id: app.id })) as Record<string, unknown>;
      return declared.map((setting) => ({ ...setting, value: values[setting.id] }));
    },
    // The declared form by content: a live update of the app item with the same form keeps what is typed.
    deps: [hub, app.id, JSON.stringify(declared)],
    save: async (changed) => {
      for (const [name, value] of Object.entries(changed)) await hub.apps.setAppSetting({ id: app.id, name, value });
    },
    savedName: app.name,
  });
  if (settings.state === 'loading') return <Loading />;
  if (settings.state === 'failed') return <Failed error={settings.error} retry={retry} />;
  return form(settings.data);
}
