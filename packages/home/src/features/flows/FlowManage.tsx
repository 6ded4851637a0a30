import type { Manager } from '@hearth/client/browser';
import type { FlowCreateBody, hubOperations, OperationResult } from '@hearth/contract';
import { HOME_PAGES } from '@hearth/contract/provider';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { strings } from '../../app/strings';
import { ConfirmCard } from '../../components/ConfirmCard';
import { FieldError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { asSentence, messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { type FlowKind, type FlowSummary, type Folder, flowPath, sortedFolders } from './model';

const t = strings.flowManage;

/** How a flow runs when triggered again: the hub answers it, though the contract's flow response does not declare it. */
type RunMode = Pick<FlowCreateBody, 'mode' | 'max'>;
type StandardFlow = OperationResult<typeof hubOperations.flow.getFlow>;

/** A flow's folder, a copy of it, and deleting it after a second, explicit button. */
export function FlowManage({ kind, flow }: { kind: FlowKind; flow: FlowSummary }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const folders = useLiveItems<Folder>(hub.manager('flow') as Manager, 'flowfolder');
  const [folderError, setFolderError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const list = folders.state === 'ready' ? sortedFolders(folders.items) : [];

  async function act(work: () => Promise<void>, fail: (reason: string) => void) {
    setBusy(true);
    try {
      await work();
    } catch (failure) {
      fail(asSentence(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  }

  function move(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const folder = String(new FormData(event.currentTarget).get('folder') ?? '') || null;
    setFolderError(null);
    void act(
      async () => {
        if (kind === 'flow') await hub.flow.updateFlow({ id: flow.id, flow: { folder } });
        else await hub.flow.updateAdvancedFlow({ id: flow.id, advancedflow: { folder } });
        notify('info', t.moved(flow.name, list.find((item) => item.id === folder)?.name ?? t.noFolder));
      },
      (reason) => setFolderError(t.refused(flow.name, reason)),
    );
  }

  // A copy starts switched off, so the same trigger does not run the same actions twice before the person says so.
  const duplicate = () =>
    act(
      async () => {
        const name = t.copyName(flow.name);
        let id: string;
        if (kind === 'flow') {
          // The client's flow item makes `trigger` a function that starts the flow; its data keeps the card.
          const source = (await hub.flow.getFlow({ id: flow.id })).toJSON() as StandardFlow & RunMode;
          const { trigger, conditions, actions, folder, mode, max } = source;
          ({ id } = await hub.flow.createFlow({
            flow: { name, enabled: false, folder, trigger, conditions, actions, mode, max },
          }));
        } else {
          const source = await hub.flow.getAdvancedFlow({ id: flow.id });
          const { cards, folder } = source;
          const { mode, max } = source as RunMode;
          ({ id } = await hub.flow.createAdvancedFlow({ advancedflow: { name, enabled: false, folder, cards, mode, max } }));
        }
        notify('info', t.duplicated(name));
        navigate(flowPath(kind, id));
      },
      (reason) => notify('error', t.notDuplicated(flow.name, reason)),
    );

  const remove = () =>
    act(
      async () => {
        if (kind === 'flow') await hub.flow.deleteFlow({ id: flow.id });
        else await hub.flow.deleteAdvancedFlow({ id: flow.id });
        notify('info', t.removed(flow.name));
        navigate(HOME_PAGES.flows);
      },
      (reason) => {
        notify('error', t.notRemoved(flow.name, reason));
        setConfirming(false);
      },
    );

  return (
    <section aria-labelledby="flow-manage" className="manage">
      <h2 id="flow-manage">{t.manage}</h2>
      <form className="inline-form" onSubmit={move}>
        <div className="field">
          <label htmlFor="flow-folder">{t.folder}</label>
          <select
            id="flow-folder"
            name="folder"
            defaultValue={flow.folder ?? ''}
            // Drawn again once the folders arrived: a default set before its option exists falls to the first one.
            key={`${flow.folder}:${folders.state}`}
            {...invalidProps('flow-folder', folderError)}
          >
            <option value="">{t.noFolder}</option>
            {list.map((folder) => (
              <option key={folder.id} value={folder.id}>
                {folder.name}
              </option>
            ))}
          </select>
          <FieldError id="flow-folder" error={folderError} />
        </div>
        <button type="submit" className="button" disabled={busy || folders.state !== 'ready'}>
          {t.move}
        </button>
      </form>
      <p className="actions">
        <button type="button" className="button button--quiet" disabled={busy} onClick={() => void duplicate()}>
          {t.duplicateName(flow.name)}
        </button>
      </p>
      {confirming ? (
        <ConfirmCard
          id="flow-remove-question"
          question={<p>{t.removeQuestion(flow.name)}</p>}
          confirm={t.removeConfirm(flow.name)}
          keep={t.keep}
          busy={busy}
          onConfirm={() => void remove()}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <button type="button" className="button button--quiet" onClick={() => setConfirming(true)}>
          {t.remove}
        </button>
      )}
    </section>
  );
}
