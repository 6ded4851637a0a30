import type { hubOperations, OperationResult } from '@hearth/contract';
import { useState } from 'react';
import { format, strings } from '../../app/strings';
import { FormError } from '../../components/FieldError';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import { OptionSwitch } from './OptionControls';
import { useOption } from './useOption';

const t = strings.system;
type Archive = OperationResult<typeof hubOperations.backup.scheduleBackup>;
type SystemInfo = OperationResult<typeof hubOperations.system.getInfo>;

/**
 * The hub's plan (whether its owner's subscriptions keep its backups in the cloud), when it last backed up, a backup
 * made now (and whether it reached the cloud), automatic backups.
 */
export function Backups() {
  const { hub } = useHub();
  const info = useAsync(() => hub.system.getInfo() as Promise<SystemInfo>, [hub]);
  const last = useOption<string | null>('backup', 'lastSuccessfulBackup');
  const [made, setMade] = useState<Archive | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function backUp() {
    setBusy(true);
    setError(null);
    try {
      setMade((await hub.backup.scheduleBackup()) as Archive);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      {info.state === 'ready' && info.data.tier ? <p>{t.plan(info.data.tier, info.data.cloudBackups === true)}</p> : null}
      {last.state === 'ready' ? (
        <p>{(made?.createdAt ?? last.value) ? t.lastBackup(format.dateTime(made?.createdAt ?? last.value ?? '')) : t.noBackup}</p>
      ) : null}
      {last.state === 'failed' ? <FormError error={messageOf(last.error)} /> : null}
      <p role="status">
        {busy ? t.backingUp : made ? t.backedUp(Math.max(1, Math.round(made.size / 1024)), made.cloudBackupId !== null) : ''}
        {made?.cloudError ? ` ${t.notInCloud(made.cloudError)}` : ''}
      </p>
      <FormError error={error} />
      <button type="button" className="button" disabled={busy} onClick={() => void backUp()}>
        {t.backUpNow}
      </button>
      <OptionSwitch manager="backup" option="automaticBackupsEnabled" label={t.automaticBackups} />
    </>
  );
}
