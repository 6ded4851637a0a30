import type { Manager } from '@hearth/client/browser';
import type { AppItem } from '@hearth/contract';
import { settingProblem } from '@hearth/contract/device-settings';
import { HOME_PAGES } from '@hearth/contract/provider';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { type Setting, SettingsFields, settingValue } from '../../components/SettingField';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';

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

function SettingsForm({ app, form }: { app: AppItem; form: Declared[] }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [version, setVersion] = useState(0);
  const values = useAsync(
    async () => (await hub.apps.getAppSettings({ id: app.id })) as Record<string, unknown>,
    [hub, app.id, version],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (values.state === 'loading') return <Loading />;
  if (values.state === 'failed') return <Failed error={values.error} retry={() => setVersion((v) => v + 1)} />;
  const settings: Setting[] = form.map((declared) => ({ ...declared, value: values.data[declared.id] }));
  const editable = settings.filter((s) => s.type !== 'label' && s.type !== 'group');

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const changed: [string, unknown][] = [];
    const found: Record<string, string> = {};
    for (const setting of editable) {
      const value = settingValue(setting, data);
      if (Object.is(value, setting.value)) continue;
      const problem = settingProblem(setting, value);
      if (problem) found[setting.id] = problem;
      else changed.push([setting.id, value]);
    }
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      document.getElementById(`setting-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    if (changed.length === 0) return notify('info', strings.settingsForm.unchanged);
    setBusy(true);
    try {
      for (const [name, value] of changed) await hub.apps.setAppSetting({ id: app.id, name, value });
      notify('info', strings.settingsForm.saved(app.name));
      setVersion((v) => v + 1);
    } catch (error) {
      setFormError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={(event) => void save(event)} noValidate key={version}>
      <SettingsFields settings={settings} errors={errors} formError={formError} busy={busy} />
    </form>
  );
}
