import type { hubOperations, OperationResult } from '@hearth/contract';
import { HOME_PAGES } from '@hearth/contract/provider';
import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { format, strings } from '../../app/strings';
import { FieldError, FormError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Section } from '../../components/Section';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';

const t = strings.mqtt;

type BridgeState = OperationResult<typeof hubOperations.mqtt.getState>;
type Zigbee2Mqtt = NonNullable<BridgeState['zigbee2mqtt']>;

/** How often the page reads the bridge's state again: the contract declares no realtime event for it. */
const REFRESH_MS = 3_000;
/** zigbee2mqtt's longest join window. */
const JOIN_SECONDS = 254;
const URL_PATTERN = /^(mqtts?|wss?):\/\/[^\s/?#]+/;

const time = (iso: string) => format.time(iso);

/** The bridge's state, read now and every few seconds while the page is open; `replace` takes a fresher answer. */
function useBridgeState() {
  const { hub } = useHub();
  const [state, setState] = useState<{ data: BridgeState | null; error: unknown }>({ data: null, error: null });
  const read = useCallback(async () => {
    try {
      setState({ data: (await hub.mqtt.getState()) as BridgeState, error: null });
    } catch (error) {
      setState((before) => ({ data: before.data, error }));
    }
  }, [hub]);
  useEffect(() => {
    void read();
    const timer = window.setInterval(() => void read(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [read]);
  return { ...state, read, replace: (data: BridgeState) => setState({ data, error: null }) };
}

/**
 * The built-in MQTT bridge's settings: where it stands with its broker and why not, the broker it uses (URL,
 * credentials, client id, TLS CA), and zigbee2mqtt's bridge with its permit-join window.
 */
export function MqttBridgePage() {
  const bridge = useBridgeState();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  let body: ReactNode;
  if (!bridge.data && bridge.error) body = <Failed error={bridge.error} retry={() => void bridge.read()} />;
  else if (!bridge.data) body = <Loading />;
  else
    body = (
      <>
        <Section id="mqtt-status" title={t.status}>
          <Status state={bridge.data} />
        </Section>
        <Section id="mqtt-broker" title={t.broker}>
          <BrokerForm state={bridge.data} onSaved={bridge.replace} />
        </Section>
        <Section id="mqtt-zigbee2mqtt" title={t.zigbee2mqtt}>
          {bridge.data.zigbee2mqtt ? (
            <Zigbee2MqttBridge bridge={bridge.data.zigbee2mqtt} now={now} onChanged={() => void bridge.read()} />
          ) : (
            <p className="muted">{t.noZigbee2mqtt}</p>
          )}
        </Section>
      </>
    );
  return (
    <>
      <p>
        <Link href={HOME_PAGES.system}>{t.back}</Link>
      </p>
      <h1 tabIndex={-1}>{t.title}</h1>
      <p className="muted">{t.intro}</p>
      {body}
    </>
  );
}

function Status({ state }: { state: BridgeState }) {
  return (
    <div role="status">
      <p>
        {state.state === 'connected' && state.url && state.connectedAt ? (
          <strong>{t.connectedSince(state.url, time(state.connectedAt))}</strong>
        ) : (
          <>
            <strong>{t.states[state.state]}</strong>
            {state.url && state.state !== 'disabled' ? ` (${state.url})` : ''}
          </>
        )}
      </p>
      {state.state !== 'connected' && state.lastError ? <p>{t.why(state.lastError)}</p> : null}
      {state.nextAttemptAt ? <p>{t.nextAttempt(time(state.nextAttemptAt))}</p> : null}
      {state.source ? <p className="muted">{state.source === 'environment' ? t.fromEnvironment : t.fromSetting}</p> : null}
      {state.state !== 'disabled' ? <p>{t.devices(state.devices)}</p> : null}
    </div>
  );
}

type Errors = Partial<Record<'url' | 'ca' | 'form', string>>;

function BrokerForm({ state, onSaved }: { state: BridgeState; onSaved(state: BridgeState): void }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  // The hub's own client id, used when none is set (the state answers the one in use, which may be this one).
  const defaultClientId = `hearth-${hub.id}`;
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const found: Errors = {};
    if (!URL_PATTERN.test(text('url'))) found.url = t.urlInvalid;
    if (text('ca') && !text('ca').includes('-----BEGIN CERTIFICATE-----')) found.ca = t.caInvalid;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const optional = (name: string) => (text(name) ? { [name]: text(name) } : {});
    setBusy(true);
    try {
      const saved = (await hub.mqtt.setBroker({
        url: text('url'),
        ...optional('username'),
        ...(String(form.get('password') ?? '') ? { password: String(form.get('password')) } : {}),
        ...optional('clientId'),
        ...optional('baseTopic'),
        ...optional('ca'),
      })) as BridgeState;
      onSaved(saved);
      notify('info', t.saved);
    } catch (failure) {
      setErrors({ form: messageOf(failure) });
    } finally {
      setBusy(false);
    }
  }
  async function forget() {
    try {
      onSaved((await hub.mqtt.unsetBroker()) as BridgeState);
      notify('info', t.forgotten);
    } catch (failure) {
      setErrors({ form: messageOf(failure) });
    }
  }
  const field = (name: string, label: string, input: ReactNode, hint?: string, error?: string) => (
    <div className="field">
      <label htmlFor={`mqtt-${name}`}>{label}</label>
      {input}
      {hint ? (
        <span id={`mqtt-${name}-hint`} className="muted">
          {hint}
        </span>
      ) : null}
      <FieldError id={`mqtt-${name}`} error={error} />
    </div>
  );
  const described = (name: string, error?: string) => {
    const invalid = invalidProps(`mqtt-${name}`, error);
    return { ...invalid, 'aria-describedby': [invalid['aria-describedby'], `mqtt-${name}-hint`].filter(Boolean).join(' ') };
  };
  return (
    // Keyed by what the hub holds, so a save or a forget shows the broker as it is stored now.
    <form key={`${state.url}|${state.username}|${state.clientId}`} onSubmit={(event) => void save(event)} noValidate>
      {field(
        'url',
        t.url,
        <input
          id="mqtt-url"
          name="url"
          type="url"
          inputMode="url"
          defaultValue={state.url ?? ''}
          {...described('url', errors.url)}
        />,
        t.urlHint,
        errors.url,
      )}
      {field(
        'username',
        t.username,
        <input id="mqtt-username" name="username" autoComplete="username" defaultValue={state.username ?? ''} />,
      )}
      {field(
        'password',
        t.password,
        <input id="mqtt-password" name="password" type="password" autoComplete="new-password" {...described('password')} />,
        t.passwordHint,
      )}
      {field(
        'clientId',
        t.clientId,
        <input
          id="mqtt-clientId"
          name="clientId"
          defaultValue={state.source === 'setting' && state.clientId !== defaultClientId ? (state.clientId ?? '') : ''}
          {...described('clientId')}
        />,
        t.clientIdHint(defaultClientId),
      )}
      {field('baseTopic', t.baseTopic, <input id="mqtt-baseTopic" name="baseTopic" defaultValue={state.baseTopic} />)}
      {field(
        'ca',
        t.ca,
        <textarea id="mqtt-ca" name="ca" rows={4} spellCheck={false} {...described('ca', errors.ca)} />,
        state.customCa ? t.caKept : t.caHint,
        errors.ca,
      )}
      <FormError error={errors.form} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {t.save}
        </button>
        {state.source === 'setting' ? (
          <button type="button" className="button button--quiet" onClick={() => void forget()}>
            {t.forget}
          </button>
        ) : null}
      </div>
    </form>
  );
}

function Zigbee2MqttBridge({ bridge, now, onChanged }: { bridge: Zigbee2Mqtt; now: number; onChanged(): void }) {
  const { hub } = useHub();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const end = bridge.permitJoin && bridge.permitJoinEnd ? Date.parse(bridge.permitJoinEnd) : null;
  const left = end !== null ? Math.max(0, Math.round((end - now) / 1000)) : 0;
  const open = bridge.permitJoin && (end === null || left > 0);
  async function permit(seconds: number) {
    setBusy(true);
    setError(null);
    try {
      await hub.mqtt.permitJoin({ time: seconds });
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }
  const facts = t.facts(bridge.version, bridge.coordinator, bridge.channel);
  return (
    <>
      <p>
        {t.online(bridge.online)}
        {facts ? ` (${facts})` : ''}
      </p>
      <p role="status">
        {open ? t.joinOpen(end === null ? '…' : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`) : t.joinClosed}
      </p>
      <FormError error={error} />
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={() => void permit(open ? 0 : JOIN_SECONDS)}>
          {open ? t.closeJoin : t.permitJoin}
        </button>
      </div>
      {bridge.events.length > 0 ? (
        <>
          <h3>{t.recent}</h3>
          <ul className="rows">
            {bridge.events.map((event) => (
              <li key={`${event.at}-${event.type}-${event.ieeeAddress}-${event.status}`} className="row">
                <span>
                  {event.friendlyName ?? event.ieeeAddress} {t.events[event.type]}
                  {event.status ? ` ${event.status}` : ''}
                </span>
                <span className="muted">{time(event.at)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
