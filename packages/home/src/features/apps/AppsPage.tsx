import type { Manager } from '@hearth/client/browser';
import type { AppItem } from '@hearth/contract';
import { HOME_PAGES } from '@hearth/contract/provider';
import { useState } from 'react';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { AppUninstall } from './AppUninstall';
import { Catalogue } from './Catalogue';
import './apps.css';

const t = strings.apps;

function stateWords(app: AppItem): string {
  if (!app.enabled) return t.disabled;
  if (app.crashed) return app.crashedMessage ? t.crashedWith(app.crashedMessage) : t.crashed;
  return t.states[app.state] ?? app.state;
}

/** The address of an app's own page (its settings). */
export const appPath = (id: string): string => HOME_PAGES.app.replace(':id', encodeURIComponent(id));

/** One app: its state live, memory use, its settings, update, and restart / enable / disable. */
function AppRow({ app }: { app: AppItem }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [uninstalling, setUninstalling] = useState(false);
  async function act(what: 'update' | 'restart' | 'enable' | 'disable') {
    setBusy(true);
    try {
      // An update is the catalogue's newest version of the app on its channel, installed over the old one.
      if (what === 'update') {
        await hub.apps.installFromAppStore({ id: app.id, channel: app.channel });
        notify('info', t.updated(app.name));
      } else if (what === 'restart') await hub.apps.restartApp({ id: app.id });
      else if (what === 'enable') await hub.apps.enableApp({ id: app.id });
      else await hub.apps.disableApp({ id: app.id });
    } catch (error) {
      notify('error', t.refused(app.name, messageOf(error)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="row" data-app-id={app.id}>
      <span className="row__main">
        <img src={app.iconObj?.url ?? app.icon} alt="" width={32} height={32} className="app-icon" />
        <span className="app-text">
          <strong>{app.name}</strong> <span className="muted">{t.version(app.version)}</span>
          <br />
          <span className={app.crashed ? 'form-error' : 'muted'} data-testid="app-state">
            {stateWords(app)}
          </span>
          {app.enabled && app.state === 'running' && app.usage?.mem ? (
            <span className="muted"> · {t.memory(app.usage.mem)}</span>
          ) : null}
        </span>
      </span>
      <span className="row__actions">
        {app.updateAvailable ? (
          <button type="button" className="button button--small" disabled={busy} onClick={() => void act('update')}>
            {t.updateName(app.name, app.updateAvailable.version)}
          </button>
        ) : null}
        {app.settings ? (
          <Link href={appPath(app.id)} className="button button--small button--quiet" aria-label={t.settingsOf(app.name)}>
            {t.settings}
          </Link>
        ) : null}
        {app.enabled ? (
          <>
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => void act('restart')}
              aria-label={t.restartName(app.name)}
            >
              {t.restart}
            </button>
            <button
              type="button"
              className="button button--small button--quiet"
              disabled={busy}
              onClick={() => void act('disable')}
              aria-label={t.disableName(app.name)}
            >
              {t.disable}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void act('enable')}
            aria-label={t.enableName(app.name)}
          >
            {t.enable}
          </button>
        )}
        {uninstalling ? null : (
          <button
            type="button"
            className="button button--small button--quiet"
            aria-label={t.remove.uninstallName(app.name)}
            onClick={() => setUninstalling(true)}
          >
            {t.remove.uninstall}
          </button>
        )}
      </span>
      {uninstalling ? <AppUninstall app={app} onKeep={() => setUninstalling(false)} /> : null}
    </li>
  );
}

/** The hub's apps with their run state, kept live by the apps manager's events. */
export function AppsPage() {
  const { hub } = useHub();
  const apps = useLiveItems<AppItem>(hub.manager('apps') as Manager, 'app');
  if (apps.state === 'failed') return <Failed error={apps.error} title={t.title} />;
  if (apps.state === 'loading') return <Loading title={t.title} />;
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <ul className="rows" aria-label={t.installedList}>
        {[...apps.items]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((app) => (
            <AppRow key={app.id} app={app} />
          ))}
      </ul>
      <Catalogue installed={new Set(apps.items.map((app) => app.id))} />
    </>
  );
}
