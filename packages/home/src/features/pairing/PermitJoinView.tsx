import { useEffect, useState } from 'react';
import { format, strings } from '../../app/strings';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';

const t = strings.zigbeePairing;

import type { ViewProps } from './PairFlow';

/** What the hub's MQTT bridge says of the join in the session's `radio` (z2m-pairing.ts). */
interface JoinState {
  stage: string;
  permitJoinEnd: string | null;
  joined: { ieeeAddress: string; friendlyName: string | null; status: string; deviceId: string | null }[];
}

const isJoinState = (value: unknown): value is JoinState =>
  typeof value === 'object' && value !== null && Array.isArray((value as JoinState).joined);

/** How often the view reads the session again, besides the session's own events. */
const POLL_MS = 2_000;

/**
 * `permit_join` (the MQTT bridge's zigbee2mqtt driver): asks the hub to open zigbee2mqtt's network while the view is
 * open, and lists the devices that join as zigbee2mqtt tells of them, until they are added.
 */
export function PermitJoinView({ session, emitted, setProgress, finish }: ViewProps) {
  const { hub } = useHub();
  const [join, setJoin] = useState<JoinState | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let alive = true;
    hub.drivers.emitPairingEvent({ id: session.id, event: 'permit_join', data: {} }).then(
      (answer) => alive && isJoinState(answer) && setJoin(answer),
      (failure: unknown) => alive && setError(failure),
    );
    const timer = window.setInterval(() => {
      hub.drivers.getPairSession({ id: session.id }).then(
        (read) => {
          const radio = (read as { radio?: unknown }).radio;
          if (alive && isJoinState(radio)) setJoin(radio);
        },
        (failure: unknown) => alive && setError(failure),
      );
    }, POLL_MS);
    return () => {
      alive = false;
      window.clearInterval(timer);
    };
  }, [hub, session.id]);
  useEffect(() => {
    if (emitted?.event === 'zigbee2mqtt' && isJoinState(emitted.data)) setJoin(emitted.data);
  }, [emitted]);
  const added = (join?.joined ?? []).filter((j) => j.status === 'added' && j.deviceId);
  const addedKey = added.map((j) => j.deviceId).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the added devices change only when their ids do
  useEffect(() => {
    setProgress((p) => ({
      ...p,
      added: added.map((j) => ({ id: String(j.deviceId), name: j.friendlyName ?? j.ieeeAddress })),
    }));
  }, [addedKey, setProgress]);
  if (error)
    return (
      <p role="alert" className="form-error">
        {messageOf(error)}
      </p>
    );
  if (!join) return <p role="status">{t.opening}</p>;
  return (
    <>
      <p role="status">{t.open(join.permitJoinEnd ? format.time(join.permitJoinEnd) : '…')}</p>
      <h2>{t.joined}</h2>
      {join.joined.length === 0 ? (
        <p className="muted">{t.waiting}</p>
      ) : (
        <ul className="rows" aria-live="polite">
          {join.joined.map((j) => (
            <li key={j.ieeeAddress} className="row">
              <span className="row__name">{j.friendlyName ?? j.ieeeAddress}</span>
              <span>{t.status[j.status] ?? j.status}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button" onClick={finish}>
        {t.done}
      </button>
    </>
  );
}
