import type { Manager } from '@hearth/client/browser';
import type { AppItem, DeviceItem } from '@hearth/contract';
import { useState } from 'react';
import { strings } from '../../app/strings';
import { ConfirmCard } from '../../components/ConfirmCard';
import { useNotify } from '../../components/Notices';
import { Loading } from '../../components/Status';
import { asSentence, messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { ownedCard } from '../flows/editor/draft';

const t = strings.apps.remove;

/** The owner and card ids a flow's cards name: a standard flow's `uri`, an advanced flow's `ownerUri`. */
interface FlowCards {
  name: string;
  trigger?: { uri?: string; id?: string };
  conditions?: { uri?: string; id?: string }[];
  actions?: { uri?: string; id?: string }[];
  cards?: Record<string, { ownerUri?: string; id?: string }>;
}

/** The owners a flow's cards belong to (`homey:device:<id>`, `homey:app:<id>`, `homey:manager:<name>`). */
function ownersOf(flow: FlowCards): string[] {
  // A standard flow item's `trigger` is the client's function that starts it, carrying the card's fields.
  // A card may name its owner only in a fully qualified id, as the ecosystem's clients write it.
  const standard = [flow.trigger, ...(flow.conditions ?? []), ...(flow.actions ?? [])].map(
    (card) => card && ownedCard(card.uri, card.id ?? '').uri,
  );
  const advanced = Object.values(flow.cards ?? {}).map((card) => ownedCard(card.ownerUri, card.id ?? '').uri);
  return [...standard, ...advanced].filter((owner): owner is string => typeof owner === 'string');
}

/**
 * Uninstalling an app after saying what goes with it: the hub removes its devices, and flows whose cards belong to
 * the app or its devices stay but stop working. Worked out from the live lists only once the question is asked.
 */
function Question({ app, busy, onConfirm, onKeep }: { app: AppItem; busy: boolean; onConfirm(): void; onKeep(): void }) {
  const { hub } = useHub();
  const flowManager = hub.manager('flow') as Manager;
  const devices = useLiveItems<DeviceItem>(hub.manager('devices') as Manager, 'device');
  const flows = useLiveItems<FlowCards>(flowManager, 'flow');
  const advanced = useLiveItems<FlowCards>(flowManager, 'advancedflow');
  if (devices.state !== 'ready' || flows.state !== 'ready' || advanced.state !== 'ready') return <Loading />;
  const appUri = `homey:app:${app.id}`;
  const removed = devices.items.filter((device) => device.ownerUri === appUri);
  const owners = new Set([appUri, ...removed.map((device) => `homey:device:${device.id}`)]);
  const affected = [...flows.items, ...advanced.items]
    .filter((flow) => ownersOf(flow).some((owner) => owners.has(owner)))
    .map((flow) => flow.name)
    .sort((a, b) => a.localeCompare(b));
  return (
    <ConfirmCard
      id={`uninstall-${app.id}`}
      className="row__confirm"
      question={
        <>
          <p>{t.question(app.name)}</p>
          {removed.length === 0 && affected.length === 0 ? <p>{t.nothingElse}</p> : null}
          {removed.length > 0 ? (
            <p>{t.devices(removed.map((device) => device.name).sort((a, b) => a.localeCompare(b)))}</p>
          ) : null}
          {affected.length > 0 ? <p>{t.flows(affected)}</p> : null}
          <p>{t.settingsKept}</p>
        </>
      }
      confirm={t.confirm(app.name)}
      keep={t.keep}
      busy={busy}
      onConfirm={onConfirm}
      onKeep={onKeep}
    />
  );
}

/** The question an app row's Uninstall button opens under the row, and the uninstall itself. */
export function AppUninstall({ app, onKeep }: { app: AppItem; onKeep(): void }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  async function uninstall() {
    setBusy(true);
    try {
      await hub.apps.uninstallApp({ id: app.id });
      notify('info', t.done(app.name));
    } catch (failure) {
      notify('error', t.refused(app.name, asSentence(messageOf(failure))));
      setBusy(false);
      onKeep();
    }
  }
  return <Question app={app} busy={busy} onConfirm={() => void uninstall()} onKeep={onKeep} />;
}
