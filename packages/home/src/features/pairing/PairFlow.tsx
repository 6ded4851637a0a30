import { HOME_PAGES } from '@hearth/contract/provider';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import type { PairableDriver } from './AddDevicePage';
import { CustomView } from './CustomView';
import { asCandidates, type Candidate } from './candidates';
import { MatterCodeView } from './MatterCodeView';
import { PermitJoinView } from './PermitJoinView';
import { type DriverCommand, type PairSession, type PairView, usePairSession } from './usePairSession';

const t = strings.pairing;

/** What the session's views hand on: the devices found and chosen, and those added so far. */
interface Progress {
  found: Candidate[] | null;
  chosen: Candidate[];
  added: { id: string; name: string }[];
}

/**
 * One pair session's views in turn. System templates are drawn here (`list_devices`, `add_devices`, `loading`,
 * `done`, and the join/learn templates as one button that asks the driver); an app's own view runs in a sandboxed
 * frame. The driver may move the views itself, over the socket.
 */
export function PairFlow({ driver, zoneId, onRestart }: { driver: PairableDriver; zoneId: string | null; onRestart(): void }) {
  const { hub } = useHub();
  const [viewId, setViewId] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);
  const [progress, setProgress] = useState<Progress>({ found: null, chosen: [], added: [] });
  const [emitted, setEmitted] = useState<{ event: string; data: unknown } | null>(null);
  const onCommand = useCallback((command: DriverCommand) => {
    if (command.kind === 'view') setViewId(command.view);
    else if (command.kind === 'done') setFinished(true);
    else setEmitted({ event: command.event, data: command.data });
  }, []);
  const opened = usePairSession(hub, driver.id, zoneId, onCommand);
  const title = t.pairDriver(driver.name);
  if (opened.state === 'failed') return <Failed error={opened.error} title={title} retry={onRestart} />;
  if (opened.state === 'opening') return <Loading title={title} />;
  const { session } = opened;
  const views = session.views;
  const view = finished ? undefined : (views.find((v) => v.id === (viewId ?? session.view)) ?? views[0]);
  const next = () => {
    const at = views.findIndex((v) => v.id === view?.id);
    const following = view?.navigation?.next ?? views[at + 1]?.id;
    if (following) setViewId(following);
    else setFinished(true);
  };
  const prev = () => {
    const at = views.findIndex((v) => v.id === view?.id);
    const previous = view?.navigation?.prev ?? views[at - 1]?.id;
    if (previous) setViewId(previous);
  };
  return (
    <>
      <h1 tabIndex={-1}>{title}</h1>
      {view ? (
        <ViewBody
          key={view.id}
          session={session}
          driver={driver}
          view={view}
          progress={progress}
          setProgress={setProgress}
          emitted={emitted}
          next={next}
          prev={prev}
          show={setViewId}
          finish={() => setFinished(true)}
        />
      ) : (
        <Done added={progress.added} onRestart={onRestart} />
      )}
      {view && view.template !== 'add_devices' ? (
        <button type="button" className="button button--quiet pair-cancel" onClick={onRestart}>
          {t.cancel}
        </button>
      ) : null}
    </>
  );
}

export interface ViewProps {
  session: PairSession;
  driver: PairableDriver;
  view: PairView;
  progress: Progress;
  setProgress(update: (progress: Progress) => Progress): void;
  emitted: { event: string; data: unknown } | null;
  next(): void;
  prev(): void;
  show(viewId: string): void;
  finish(): void;
}

function ViewBody(props: ViewProps) {
  switch (props.view.template) {
    case 'list_devices':
      return <ListDevices {...props} />;
    case 'add_devices':
      return <AddDevices {...props} />;
    case 'loading':
      return <Loading />;
    case 'done':
      return <Done added={props.progress.added} />;
    case 'permit_join':
      return <PermitJoinView {...props} />;
    case 'matter_code':
      return <MatterCodeView {...props} />;
    case undefined:
      return <CustomView {...props} />;
    default:
      return <AskDriver {...props} />;
  }
}

/** `list_devices`: what the driver finds, each to tick; the chosen ones go on to be added. */
function ListDevices({ session, progress, setProgress, next }: ViewProps) {
  const { hub } = useHub();
  const [answer, setAnswer] = useState<{ state: 'asking' } | { state: 'failed'; error: unknown } | { state: 'found' }>({
    state: 'asking',
  });
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  useEffect(() => {
    hub.drivers.emitPairingEvent({ id: session.id, event: 'list_devices', data: {} }).then(
      (found) => {
        const candidates = asCandidates(found);
        setProgress((p) => ({ ...p, found: candidates }));
        // One device found is most likely the one meant.
        setTicked(new Set(candidates.length === 1 ? [0] : []));
        setAnswer({ state: 'found' });
      },
      (error: unknown) => setAnswer({ state: 'failed', error }),
    );
  }, [hub, session.id, setProgress]);
  if (answer.state === 'asking') return <p role="status">{t.searching}</p>;
  if (answer.state === 'failed')
    return (
      <p role="alert" className="form-error">
        {messageOf(answer.error)}
      </p>
    );
  const found = progress.found ?? [];
  if (found.length === 0) return <p role="status">{t.noneFound}</p>;
  const toggle = (index: number) =>
    setTicked((all) => {
      const copy = new Set(all);
      if (!copy.delete(index)) copy.add(index);
      return copy;
    });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setProgress((p) => ({ ...p, chosen: found.filter((_, index) => ticked.has(index)) }));
        next();
      }}
    >
      <fieldset className="choices">
        <legend>{t.found(found.length)}</legend>
        {found.map((candidate, index) => (
          <label key={JSON.stringify(candidate.data)} className="choice">
            <input type="checkbox" checked={ticked.has(index)} onChange={() => toggle(index)} />
            <span>{candidate.name}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={ticked.size === 0}>
        {t.next}
      </button>
    </form>
  );
}

/** A join or learn template (`zigbee_join`, `rf_learn`, …): asks the driver, which answers the device it found. */
function AskDriver({ session, view, setProgress, next }: ViewProps) {
  const { hub } = useHub();
  const [state, setState] = useState<{ state: 'idle' | 'asking' } | { state: 'failed'; error: unknown }>({ state: 'idle' });
  const ask = async () => {
    setState({ state: 'asking' });
    try {
      const found = asCandidates(
        await hub.drivers.emitPairingEvent({ id: session.id, event: view.template ?? view.id, data: {} }),
      );
      setProgress((p) => ({ ...p, found, chosen: found }));
      next();
    } catch (error) {
      setState({ state: 'failed', error });
    }
  };
  return (
    <>
      <p>{t.askDriver}</p>
      {state.state === 'failed' ? (
        <p role="alert" className="form-error">
          {messageOf(state.error)}
        </p>
      ) : null}
      <button type="button" className="button" disabled={state.state === 'asking'} onClick={() => void ask()}>
        {state.state === 'asking' ? t.searching : t.start}
      </button>
    </>
  );
}

/** `add_devices`: adds the chosen devices one by one, then moves on. */
function AddDevices({ session, progress, setProgress, next }: ViewProps) {
  const { hub } = useHub();
  const [failed, setFailed] = useState<{ name: string; error: unknown } | null>(null);
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: adds once, when the view opens
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    let alive = true;
    (async () => {
      for (const candidate of progress.chosen) {
        try {
          const device = (await hub.drivers.createPairSessionDevice({ id: session.id, device: candidate as never })) as {
            id: string;
            name: string;
          };
          setProgress((p) => ({ ...p, added: [...p.added, { id: device.id, name: device.name }] }));
        } catch (error) {
          if (alive) setFailed({ name: candidate.name, error });
          return;
        }
      }
      if (alive) next();
    })();
    return () => {
      alive = false;
    };
  }, []);
  if (failed)
    return (
      <p role="alert" className="form-error">
        {t.notAdded(failed.name, messageOf(failed.error))}
      </p>
    );
  return <p role="status">{t.adding(progress.chosen.length)}</p>;
}

function Done({ added, onRestart }: { added: { id: string; name: string }[]; onRestart?(): void }) {
  return (
    <section className="card" aria-labelledby="pair-done">
      <h2 id="pair-done">{added.length === 0 ? t.noneAdded : t.added(added.length)}</h2>
      {added.length > 0 ? (
        <ul className="rows">
          {added.map((device) => (
            <li key={device.id} className="row">
              <Link className="row__link" href={HOME_PAGES.device.replace(':id', encodeURIComponent(device.id))}>
                {device.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="actions">
        {onRestart ? (
          <button type="button" className="button" onClick={onRestart}>
            {t.another}
          </button>
        ) : null}
        <Link href={HOME_PAGES.home} className="button button--quiet">
          {t.backHome}
        </Link>
      </p>
    </section>
  );
}
