import { useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import type { FlowKind, FlowSummary } from './model';

const t = strings.flows;

/** Turns a flow on or off, optimistically; the hub's refusal puts it back with its reason. */
export function EnabledSwitch({ kind, flow }: { kind: FlowKind; flow: FlowSummary }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [pending, setPending] = useState<boolean | null>(null);
  const enabled = pending ?? flow.enabled;
  async function toggle() {
    setPending(!enabled);
    try {
      if (kind === 'flow') await hub.flow.updateFlow({ id: flow.id, flow: { enabled: !enabled } });
      else await hub.flow.updateAdvancedFlow({ id: flow.id, advancedflow: { enabled: !enabled } });
    } catch (error) {
      notify('error', t.refused(flow.name, messageOf(error)));
    } finally {
      setPending(null);
    }
  }
  return (
    <button
      type="button"
      role="switch"
      aria-checked={enabled}
      aria-label={t.enabledName(flow.name)}
      className={`switch${enabled ? ' switch--on' : ''}`}
      onClick={() => void toggle()}
    >
      <span className="switch__label">{enabled ? t.enabled : t.disabled}</span>
    </button>
  );
}

/** Starts a flow now (flows whose trigger is "this flow is started"); the run shows in its traces. */
export function RunButton({ kind, flow, onRun }: { kind: FlowKind; flow: FlowSummary; onRun?: () => void }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!flow.triggerable) return null;
  async function run() {
    setBusy(true);
    try {
      if (kind === 'flow') await hub.flow.triggerFlow({ id: flow.id });
      else await hub.flow.triggerAdvancedFlow({ id: flow.id });
      notify('info', t.started(flow.name));
      onRun?.();
    } catch (error) {
      notify('error', t.notStarted(flow.name, messageOf(error)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      className="button button--small"
      disabled={busy || !flow.enabled}
      onClick={() => void run()}
      aria-label={t.runName(flow.name)}
    >
      {t.run}
    </button>
  );
}
