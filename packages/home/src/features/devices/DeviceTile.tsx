import { HOME_PAGES } from '@hearth/contract/provider';
import { useState } from 'react';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { type Capability, type Device, formatValue, quickControl, readouts } from './capabilities';
import { useCapability } from './useCapability';

const t = strings.home;

export const devicePath = (id: string) => HOME_PAGES.device.replace(':id', encodeURIComponent(id));

/** A device at a glance: its name, live read-outs and one control for its class. */
export function DeviceTile({ device }: { device: Device }) {
  const control = device.available ? quickControl(device) : null;
  const shown = readouts(device).filter((cap) => cap.id !== control?.id);
  return (
    <li className={`tile${device.available ? '' : ' tile--unavailable'}`} data-device-id={device.id}>
      <div className="tile__head">
        <Link href={devicePath(device.id)} className="tile__name">
          {device.name}
        </Link>
        {control ? <QuickControl device={device} cap={control} /> : null}
      </div>
      {device.available ? null : (
        <p className="tile__problem">
          <strong>{t.unavailable}</strong>
          {device.unavailableMessage ? `: ${device.unavailableMessage}` : null}
        </p>
      )}
      {shown.length > 0 ? (
        <dl className="tile__readouts">
          {shown.map((cap) => (
            <div key={cap.id}>
              <dt>{cap.title}</dt>
              <dd data-capability={cap.id}>{formatValue(cap)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

export function QuickControl({ device, cap }: { device: Device; cap: Capability }) {
  switch (cap.id) {
    case 'onoff':
      return <OnOff device={device} cap={cap} />;
    case 'locked':
      return <Lock device={device} cap={cap} />;
    case 'button':
      return <Press device={device} cap={cap} />;
    case 'target_temperature':
      return <Stepper device={device} cap={cap} />;
    case 'dim':
      return <Dim device={device} cap={cap} />;
    case 'windowcoverings_state':
      return <Coverings device={device} cap={cap} />;
    default:
      return null;
  }
}

type ControlProps = { device: Device; cap: Capability };

function OnOff({ device, cap }: ControlProps) {
  const { value, set, busy } = useCapability(device, cap);
  const on = value === true;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={t.switchName(device.name)}
      aria-busy={busy}
      className={`switch${on ? ' switch--on' : ''}`}
      onClick={() => void set(!on)}
    >
      <span className="switch__label">{on ? t.on : t.off}</span>
    </button>
  );
}

function Lock({ device, cap }: ControlProps) {
  const { value, set } = useCapability(device, cap);
  const [confirming, setConfirming] = useState(false);
  const locked = value === true;
  if (confirming)
    return (
      <span className="confirm">
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setConfirming(false);
            void set(!locked);
          }}
        >
          {locked ? strings.values.unlock(device.name) : strings.values.lock(device.name)}
        </button>
        <button type="button" className="button button--quiet button--small" onClick={() => setConfirming(false)}>
          {strings.values.cancel}
        </button>
      </span>
    );
  return (
    <button type="button" className="button button--small" aria-pressed={locked} onClick={() => setConfirming(true)}>
      {locked ? strings.values.locked : strings.values.unlocked}
    </button>
  );
}

function Press({ device, cap }: ControlProps) {
  const { set } = useCapability(device, cap);
  return (
    <button
      type="button"
      className="button button--small"
      onClick={() => void set(true)}
      aria-label={strings.values.pressName(device.name)}
    >
      {strings.values.press}
    </button>
  );
}

function Stepper({ device, cap }: ControlProps) {
  const { value, set } = useCapability(device, cap);
  const step = cap.step ?? 0.5;
  const current = typeof value === 'number' ? value : (cap.min ?? 20);
  const clamp = (n: number) => Math.min(cap.max ?? Number.POSITIVE_INFINITY, Math.max(cap.min ?? Number.NEGATIVE_INFINITY, n));
  return (
    <fieldset className="stepper">
      <legend className="visually-hidden">{`${device.name} ${cap.title}`}</legend>
      <button
        type="button"
        className="button button--small"
        aria-label={strings.values.lower(cap.title)}
        onClick={() => void set(clamp(current - step))}
      >
        −
      </button>
      <output aria-live="polite">{formatValue({ ...cap, value: current })}</output>
      <button
        type="button"
        className="button button--small"
        aria-label={strings.values.raise(cap.title)}
        onClick={() => void set(clamp(current + step))}
      >
        +
      </button>
    </fieldset>
  );
}

function Dim({ device, cap }: ControlProps) {
  const { value, set } = useCapability(device, cap);
  const percent = Math.round((typeof value === 'number' ? value : 0) * 100);
  // The figure follows the slider while it moves; the hub is told when it is let go.
  const [moving, setMoving] = useState<number | null>(null);
  const shown = moving ?? percent;
  const release = (target: HTMLInputElement) => {
    setMoving(null);
    void set(Number(target.value) / 100);
  };
  return (
    <span className="dim">
      <input
        type="range"
        className="slider"
        min={0}
        max={100}
        step={1}
        aria-label={`${device.name} ${cap.title}`}
        aria-valuetext={`${shown} %`}
        defaultValue={percent}
        key={percent}
        onInput={(event) => setMoving(Number(event.currentTarget.value))}
        onPointerUp={(event) => release(event.currentTarget)}
        onKeyUp={(event) => release(event.currentTarget)}
      />
      <output className="dim__value">{`${shown} %`}</output>
    </span>
  );
}

function Coverings({ device, cap }: ControlProps) {
  const { value, set } = useCapability(device, cap);
  const states = (['up', 'idle', 'down'] as const).map((state) => [state, strings.values.coverings[state]] as const);
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{`${device.name} ${cap.title}`}</legend>
      {states.map(([state, label]) => (
        <button
          key={state}
          type="button"
          className="button button--small"
          aria-pressed={value === state}
          onClick={() => void set(state)}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}
