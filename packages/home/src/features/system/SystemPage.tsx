import { HOME_PAGES } from '@hearth/contract/provider';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { FieldError, FormError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Section } from '../../components/Section';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { applyTheme, storedTheme, type Theme } from '../../lib/theme';
import { useAsync } from '../../lib/useLoad';
import { Backups } from './Backups';
import { OptionSelect } from './OptionControls';
import { Updates } from './Updates';

const t = strings.system;

/** The hub's name: shown at once when saved, the old one back with the hub's reason if refused. */
function HubName() {
  const { hub } = useHub();
  const loaded = useAsync(() => hub.system.getSystemName() as Promise<string>, [hub]);
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const notify = useNotify();
  if (loaded.state === 'loading') return <p className="muted">{strings.loading}</p>;
  if (loaded.state === 'failed') return <FormError error={messageOf(loaded.error)} />;
  const current = name ?? loaded.data;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    if (!next) return setError(t.nameRequired);
    const before = current;
    setName(next);
    setError(null);
    try {
      setName((await hub.system.setSystemName({ name: next })) as string);
      notify('info', t.renamed(next));
    } catch (failure) {
      setName(before);
      setError(messageOf(failure));
    }
  }
  return (
    <form className="inline-form" onSubmit={(event) => void save(event)} noValidate>
      <div className="field">
        <label htmlFor="hub-name">{t.name}</label>
        <input
          id="hub-name"
          name="name"
          maxLength={64}
          defaultValue={current}
          key={current}
          {...invalidProps('hub-name', error)}
        />
        <FieldError id="hub-name" error={error} />
      </div>
      <button type="submit" className="button">
        {t.rename}
      </button>
    </form>
  );
}

/** Light, dark or as the system says: kept in this browser only. */
function Appearance() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  return (
    <fieldset className="choices choices--inline">
      <legend>{t.theme}</legend>
      {(['system', 'light', 'dark'] as const).map((choice) => (
        <label key={choice} className="choice">
          <input
            type="radio"
            name="theme"
            value={choice}
            checked={theme === choice}
            onChange={() => {
              applyTheme(choice);
              setTheme(choice);
            }}
          />
          <span>{t.themes[choice]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Restarting the hub, after a second, explicit button. */
function Reboot() {
  const { hub } = useHub();
  const notify = useNotify();
  const [asking, setAsking] = useState(false);
  async function reboot() {
    setAsking(false);
    try {
      await hub.system.reboot();
      notify('info', t.rebooting);
    } catch (failure) {
      notify('error', t.notRebooted(messageOf(failure)));
    }
  }
  return asking ? (
    <div className="danger">
      <p>{t.rebootQuestion}</p>
      <div className="actions">
        <button type="button" className="button button--danger" onClick={() => void reboot()}>
          {t.rebootConfirm}
        </button>
        <button type="button" className="button button--quiet" onClick={() => setAsking(false)}>
          {t.keepRunning}
        </button>
      </div>
    </div>
  ) : (
    <button type="button" className="button button--quiet" onClick={() => setAsking(true)}>
      {t.reboot}
    </button>
  );
}

/** The hub itself: its name, language and units, updates, backups and restart; and this browser's theme. */
export function SystemPage() {
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <Section id="system-hub" title={t.hub}>
        <HubName />
        <OptionSelect manager="i18n" option="language" label={t.language} choices={t.languages} />
        <OptionSelect manager="i18n" option="units" label={t.units} choices={t.unitSystems} />
      </Section>
      <Section id="system-updates" title={t.updates}>
        <Updates />
      </Section>
      <Section id="system-backups" title={t.backups}>
        <Backups />
      </Section>
      <Section id="system-bridges" title={t.bridges}>
        <p>
          <Link href={HOME_PAGES.mqtt}>{strings.mqtt.link}</Link>
        </p>
      </Section>
      <Section id="system-appearance" title={t.appearance}>
        <Appearance />
      </Section>
      <Section id="system-restart" title={t.restart}>
        <Reboot />
      </Section>
    </>
  );
}
