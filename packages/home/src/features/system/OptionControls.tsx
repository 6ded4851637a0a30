import { useState } from 'react';
import { strings } from '../../app/strings';
import { FieldError, FormError, invalidProps } from '../../components/FieldError';
import { messageOf } from '../../lib/errors';
import { useOption } from './useOption';

/** A select bound to a hub option; a refused change goes back and says why. */
export function OptionSelect({
  manager,
  option,
  label,
  choices,
}: {
  manager: string;
  option: string;
  label: string;
  choices: Record<string, string>;
}) {
  const value = useOption<string>(manager, option);
  const [error, setError] = useState<string | null>(null);
  const id = `option-${manager}-${option}`;
  if (value.state === 'loading') return <p className="muted">{strings.loading}</p>;
  if (value.state === 'failed') return <FormError error={`${label}: ${messageOf(value.error)}`} />;
  const known = value.value in choices ? choices : { ...choices, [value.value]: value.value };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value.value}
        onChange={(event) => void value.set(event.target.value).then(setError)}
        {...invalidProps(id, error)}
      >
        {Object.entries(known).map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A switch bound to a yes-or-no hub option; a refused change goes back and says why. */
export function OptionSwitch({ manager, option, label }: { manager: string; option: string; label: string }) {
  const value = useOption<boolean>(manager, option);
  const [error, setError] = useState<string | null>(null);
  const id = `option-${manager}-${option}`;
  if (value.state === 'loading') return <p className="muted">{strings.loading}</p>;
  if (value.state === 'failed') return <FormError error={`${label}: ${messageOf(value.error)}`} />;
  return (
    <div className="field field--switch">
      <span id={`${id}-label`}>{label}</span>
      <button
        type="button"
        role="switch"
        aria-checked={value.value}
        aria-labelledby={`${id}-label`}
        className={`switch${value.value ? ' switch--on' : ''}`}
        onClick={() => void value.set(!value.value).then(setError)}
        {...invalidProps(id, error)}
      >
        <span className="switch__label">{value.value ? strings.system.on : strings.system.off}</span>
      </button>
      <FieldError id={id} error={error} />
    </div>
  );
}
