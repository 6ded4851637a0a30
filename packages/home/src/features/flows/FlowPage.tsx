import type { Manager } from '@hearth/client/browser';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { format, strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { EnabledSwitch, RunButton } from './FlowControls';
import { FlowManage } from './FlowManage';
import { type FlowKind, type FlowSummary, flowEditPath, type Pending, parseFlowParam, type Trace } from './model';
import { TraceList } from './TraceList';

const t = strings.flows;

/**
 * The runs of one flow, newest first, live: a run the hub starts appears at once (`trace.create`) and fills in
 * step by step while it runs (`trace.update`). Pending delayed actions are fetched again whenever a run changes.
 */
function useTraces(kind: FlowKind, id: string) {
  const { hub } = useHub();
  const [traces, setTraces] = useState<Trace[] | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<unknown>(null);
  const loadPending = useCallback(async () => {
    const all = (await hub.flow.getPendingFlowActions()) as unknown as Pending[];
    setPending(all.filter((item) => item.flowId === id));
  }, [hub, id]);
  useEffect(() => {
    let current = true;
    const manager = hub.manager('flow') as Manager;
    const onTrace = (trace: Trace) => {
      if (!current || trace.flowId !== id) return;
      setTraces((list) =>
        [trace, ...(list ?? []).filter((item) => item.id !== trace.id)].sort((a, b) => b.startedAt.localeCompare(a.startedAt)),
      );
      void loadPending().catch(() => {});
    };
    manager.on('trace.create', onTrace);
    manager.on('trace.update', onTrace);
    void (async () => {
      try {
        // Follows the manager's events before reading, so no run falls between the two.
        await manager.connect();
        const list = (kind === 'flow'
          ? await hub.flow.getFlowTraces({ id })
          : await hub.flow.getAdvancedFlowTraces({ id })) as unknown as Trace[];
        if (current) setTraces((live) => mergeTraces(list, live ?? []));
        await loadPending();
      } catch (failure) {
        if (current) setError(failure);
      }
    })();
    return () => {
      current = false;
      manager.off('trace.create', onTrace);
      manager.off('trace.update', onTrace);
    };
  }, [hub, kind, id, loadPending]);
  return { traces, pending, error, loadPending };
}

/** The fetched runs with any that arrived live meanwhile (the live copy is newer). */
function mergeTraces(fetched: Trace[], live: Trace[]): Trace[] {
  const byId = new Map(fetched.map((trace) => [trace.id, trace]));
  for (const trace of live) byId.set(trace.id, trace);
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** One flow: its state, run now, pending delayed actions with cancel, and its runs as timelines. */
export function FlowPage({ param }: { param: string }) {
  const { hub } = useHub();
  const notify = useNotify();
  const { kind, id } = parseFlowParam(param);
  const flows = useLiveItems<FlowSummary>(hub.manager('flow') as Manager, kind);
  const { traces, pending, error, loadPending } = useTraces(kind, id);
  if (flows.state === 'failed') return <Failed error={flows.error} />;
  if (flows.state === 'loading') return <Loading />;
  const flow = flows.items.find((item) => item.id === id);
  if (!flow)
    return (
      <>
        <h1 tabIndex={-1}>{strings.errors.notFound}</h1>
        <Link href="/flows">{t.back}</Link>
      </>
    );
  async function cancel(item: Pending) {
    try {
      await hub.flow.deletePendingFlowAction({ id: item.id });
      await loadPending();
    } catch (failure) {
      notify('error', messageOf(failure));
    }
  }
  return (
    <>
      <p className="crumb">
        <Link href="/flows">{t.back}</Link>
      </p>
      <h1 tabIndex={-1}>{flow.name}</h1>
      <div className="row__actions">
        <RunButton kind={kind} flow={flow} />
        <EnabledSwitch kind={kind} flow={flow} />
        <Link
          href={flowEditPath(kind, id)}
          className="button button--small button--quiet"
          aria-label={strings.flowEditor.editName(flow.name)}
        >
          {strings.flowEditor.edit}
        </Link>
      </div>
      {flow.broken ? <p className="form-error">{t.brokenExplained}</p> : null}
      {pending.length > 0 ? (
        <section aria-labelledby="pending">
          <h2 id="pending">{t.pending}</h2>
          <ul className="rows">
            {pending.map((item) => (
              <li key={item.id} className="row">
                <span className="row__main">{t.dueAt(format.time(item.dueAt))}</span>
                <button type="button" className="button button--small button--quiet" onClick={() => void cancel(item)}>
                  {t.cancel}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="runs">
        <h2 id="runs">{t.runs}</h2>
        {error ? <Failed error={error} /> : traces === null ? <Loading /> : <TraceList traces={traces} />}
      </section>
      <FlowManage kind={kind} flow={flow} />
    </>
  );
}
