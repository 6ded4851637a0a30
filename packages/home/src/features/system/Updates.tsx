import type { hubOperations, OperationResult } from '@hearth/contract';
import { useEffect, useState } from 'react';
import { strings } from '../../app/strings';
import { FormError } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import { OptionSwitch } from './OptionControls';

const t = strings.system;
type Progress = OperationResult<typeof hubOperations.updates.installUpdate>;
type Update = OperationResult<typeof hubOperations.updates.getUpdates>[number];

/** The installed version, the updates of the channel, an install followed live (`update.update`), auto-update. */
export function Updates() {
  const { hub } = useHub();
  const notify = useNotify();
  const state = useAsync(() => hub.updates.getState() as Promise<Progress>, [hub]);
  const updates = useAsync(() => hub.updates.getUpdates({}) as Promise<Update[]>, [hub]);
  const [progress, setProgress] = useState<Progress | null>(null);
  useEffect(() => {
    const manager = hub.manager('updates');
    if (!manager) return;
    const onUpdate = (next: Progress) => setProgress(next);
    manager.on('update.update', onUpdate);
    void manager.connect().catch(() => {});
    return () => {
      manager.off('update.update', onUpdate);
    };
  }, [hub]);

  const current = progress ?? (state.state === 'ready' ? state.data : null);
  const busy = current?.status === 'downloading' || current?.status === 'installing';
  async function act(install: boolean) {
    try {
      setProgress((await (install ? hub.updates.installUpdate({}) : hub.updates.abortInstallUpdate())) as Progress);
    } catch (failure) {
      notify('error', t.updateRefused(messageOf(failure)));
    }
  }

  return (
    <>
      {current ? <p>{t.installed(current.currentVersion)}</p> : null}
      {state.state === 'failed' ? <FormError error={messageOf(state.error)} /> : null}
      {busy && current ? (
        <div className="actions">
          <label className="progress">
            <span>{t.installing(current.version ?? '', current.status)}</span>
            <progress max={1} value={current.progress} />
          </label>
          <button type="button" className="button button--quiet" onClick={() => void act(false)}>
            {t.abort}
          </button>
        </div>
      ) : null}
      {current?.rebootRequired ? <p>{t.rebootRequired}</p> : null}
      {updates.state === 'loading' ? <p className="muted">{strings.loading}</p> : null}
      {updates.state === 'failed' ? <FormError error={messageOf(updates.error)} /> : null}
      {updates.state === 'ready' && updates.data.length === 0 ? <p className="muted">{t.upToDate}</p> : null}
      {updates.state === 'ready' && updates.data.length > 0 ? (
        <>
          <ul className="rows">
            {updates.data.map((update) => (
              <li key={update.id} className="row">
                <span className="row__main">
                  <strong>{t.version(update.version)}</strong>
                  <span className="muted">{update.changelog.en ?? Object.values(update.changelog)[0] ?? ''}</span>
                </span>
              </li>
            ))}
          </ul>
          {busy ? null : (
            <button type="button" className="button" onClick={() => void act(true)}>
              {t.install(updates.data[0]?.version ?? '')}
            </button>
          )}
        </>
      ) : null}
      <OptionSwitch manager="updates" option="autoupdate" label={t.autoupdate} />
    </>
  );
}
