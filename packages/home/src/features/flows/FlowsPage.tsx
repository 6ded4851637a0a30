import type { Manager } from '@hearth/client/browser';
import { HOME_PAGES } from '@hearth/contract/provider';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub, useLiveItems } from '../../lib/hub';
import { EnabledSwitch, RunButton } from './FlowControls';
import { FolderHeading, NewFolder } from './Folders';
import { type FlowKind, type FlowSummary, type Folder, flowPath, sortedFolders } from './model';

const t = strings.flows;

type Listed = FlowSummary & { kind: FlowKind };

/** Every flow and advanced flow, by folder, with its state, a switch to turn it on or off, and run now. */
export function FlowsPage() {
  const { hub } = useHub();
  const manager = hub.manager('flow') as Manager;
  const flows = useLiveItems<FlowSummary>(manager, 'flow');
  const advanced = useLiveItems<FlowSummary>(manager, 'advancedflow');
  const folders = useLiveItems<Folder>(manager, 'flowfolder');
  for (const live of [flows, advanced, folders])
    if (live.state === 'failed') return <Failed error={live.error} title={t.title} />;
  if (flows.state !== 'ready' || advanced.state !== 'ready' || folders.state !== 'ready') return <Loading title={t.title} />;

  const all: Listed[] = [
    ...flows.items.map((flow) => ({ ...flow, kind: 'flow' as const })),
    ...advanced.items.map((flow) => ({ ...flow, kind: 'advancedflow' as const })),
  ].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const known = new Set(folders.items.map((folder) => folder.id));
  // Every folder is listed, an empty one too (a new folder waits for its first flow); "not in a folder" only when
  // it holds any.
  const groups = [...sortedFolders(folders.items), null]
    .map((folder) => ({
      folder,
      id: folder?.id ?? '',
      flows: all.filter((flow) => (flow.folder && known.has(flow.folder) ? flow.folder : '') === (folder?.id ?? '')),
    }))
    .filter((group) => group.folder || group.flows.length > 0);
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <span className="actions">
          <Link href={HOME_PAGES.flowNew} className="button">
            {strings.flowEditor.newFlow}
          </Link>
          <Link href={HOME_PAGES.advancedFlowNew} className="button button--quiet">
            {strings.canvas.newAdvanced}
          </Link>
        </span>
      </div>
      {all.length === 0 ? <p>{t.empty}</p> : null}
      {groups.map((group) => (
        <section key={group.id || 'none'} className="zone" aria-labelledby={`folder-${group.id || 'none'}`}>
          {group.folder ? (
            <FolderHeading folder={group.folder} headingId={`folder-${group.id}`} />
          ) : (
            <h2 id="folder-none">{t.noFolder}</h2>
          )}
          {group.flows.length === 0 ? <p className="muted">{strings.flowManage.folders.empty}</p> : null}
          <ul className="rows">
            {group.flows.map((flow) => (
              <li key={`${flow.kind}:${flow.id}`} className="row" data-flow-id={flow.id}>
                <span className="row__main">
                  <Link href={flowPath(flow.kind, flow.id)} className="row__name">
                    {flow.name}
                  </Link>
                  <span className="badges">
                    {flow.kind === 'advancedflow' ? <span className="badge">{t.advanced}</span> : null}
                    {flow.broken ? <span className="badge badge--error">{t.broken}</span> : null}
                  </span>
                </span>
                <span className="row__actions">
                  <RunButton kind={flow.kind} flow={flow} />
                  <EnabledSwitch kind={flow.kind} flow={flow} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <NewFolder />
    </>
  );
}
