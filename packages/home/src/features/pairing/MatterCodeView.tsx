import { useId, useState } from 'react';
import { strings } from '../../app/strings';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { asCandidates } from './candidates';
import type { ViewProps } from './PairFlow';

const t = strings.matterPairing;

/**
 * `matter_code`: the Matter device's setup code, typed from its label. The hub finds the device on the network,
 * commissions it onto its own fabric and answers one device per endpoint it supports, which the next view adds.
 * The hub's errors (a wrong code, nothing in pairing mode on the network, already added) are shown as it words them.
 */
export function MatterCodeView({ session, setProgress, next }: ViewProps) {
  const { hub } = useHub();
  const id = useId();
  const [code, setCode] = useState('');
  const [state, setState] = useState<{ state: 'idle' | 'commissioning' } | { state: 'failed'; error: unknown }>({
    state: 'idle',
  });
  const commissioning = state.state === 'commissioning';
  const commission = async () => {
    setState({ state: 'commissioning' });
    try {
      const found = asCandidates(
        await hub.drivers.emitPairingEvent({ id: session.id, event: 'matter_code', data: { code: code.trim() } }),
      );
      setProgress((p) => ({ ...p, found, chosen: found }));
      next();
    } catch (error) {
      setState({ state: 'failed', error });
    }
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void commission();
      }}
    >
      <p>{t.intro}</p>
      <div className="field">
        <label htmlFor={`${id}-code`}>{t.code}</label>
        <input
          id={`${id}-code`}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
          disabled={commissioning}
          aria-describedby={`${id}-hint`}
          aria-invalid={state.state === 'failed' || undefined}
        />
        <span id={`${id}-hint`} className="muted">
          {t.codeHint}
        </span>
      </div>
      {state.state === 'failed' ? (
        <p role="alert" className="form-error">
          {messageOf(state.error)}
        </p>
      ) : null}
      {commissioning ? <p role="status">{t.commissioning}</p> : null}
      <button type="submit" className="button" disabled={commissioning || code.trim() === ''}>
        {t.commission}
      </button>
    </form>
  );
}
