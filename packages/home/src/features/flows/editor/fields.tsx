import './fields.css';
import { useId, useRef, useState } from 'react';
import { strings } from '../../../app/strings';
import { FieldError, invalidProps } from '../../../components/FieldError';
import { AutocompleteField } from './AutocompleteField';
import {
  type CardArg,
  type DraftCard,
  dateFromField,
  dateToField,
  deviceFilter,
  insertToken,
  numberFieldValue,
  type TokenType,
  tokenTypesFor,
} from './draft';
import { Field } from './Field';

const t = strings.flowEditor;

/** A token the flow can use where the person is editing: its reference (`[[…]]` inside), title, type and owner. */
export interface TokenChoice {
  reference: string;
  title: string;
  type: TokenType;
  owner: string;
}

export interface DeviceChoice {
  id: string;
  name: string;
  class?: string;
  capabilities?: string[];
}

/**
 * Inserts a token reference where the caret of `input` was: a button that opens the fitting tokens (the
 * trigger's own and the global ones, each with its type) as a list of buttons right under it.
 */
function TokenPicker({
  label,
  types,
  tokens,
  insert,
}: {
  label: string;
  types: readonly TokenType[];
  tokens: readonly TokenChoice[];
  insert: (reference: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const fitting = tokens.filter((token) => types.includes(token.type));
  const owners = [...new Set(fitting.map((token) => token.owner))];
  return (
    <div className="token-picker">
      <button
        type="button"
        className="button button--small button--quiet"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={t.tokens.insertInto(label)}
        onClick={() => setOpen(!open)}
      >
        {t.tokens.insert}
      </button>
      {open ? (
        <div id={listId} className="token-picker__list">
          {fitting.length === 0 ? <p className="muted">{t.tokens.none}</p> : null}
          {owners.map((owner) => (
            <div key={owner}>
              <p className="token-picker__owner">{owner}</p>
              <ul className="chips">
                {fitting
                  .filter((token) => token.owner === owner)
                  .map((token) => (
                    <li key={token.reference}>
                      <button
                        type="button"
                        className="button button--small button--quiet"
                        data-token={token.reference}
                        onClick={() => {
                          insert(token.reference);
                          setOpen(false);
                        }}
                      >
                        {t.tokens.option(token.title, t.tokens.types[token.type] ?? token.type)}
                      </button>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** A text field (or a number field that may hold a token) with the token picker beside it. */
function TokenTextField({
  id,
  label,
  value,
  numeric,
  error,
  types,
  tokens,
  placeholder,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  numeric?: boolean;
  error?: string;
  types: readonly TokenType[];
  tokens: readonly TokenChoice[];
  placeholder?: string;
  onChange: (text: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  // Where the caret was when the field lost focus to the picker: the token goes there.
  const caret = useRef<{ start: number; end: number } | null>(null);
  return (
    <Field id={id} label={label} error={error}>
      <div className="with-tokens">
        <input
          ref={input}
          id={id}
          type="text"
          inputMode={numeric ? 'decimal' : undefined}
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          onBlur={(event) =>
            (caret.current = {
              start: event.target.selectionStart ?? value.length,
              end: event.target.selectionEnd ?? value.length,
            })
          }
          {...invalidProps(id, error)}
        />
        <TokenPicker
          label={label}
          types={types}
          tokens={tokens}
          insert={(reference) => {
            const at = caret.current ?? { start: value.length, end: value.length };
            // A number field holds one token, not a token inside other text.
            const next = numeric
              ? { text: `[[${reference}]]`, caret: reference.length + 4 }
              : insertToken(value, reference, at.start, at.end);
            onChange(next.text);
            requestAnimationFrame(() => {
              input.current?.focus();
              input.current?.setSelectionRange(next.caret, next.caret);
            });
          }}
        />
      </div>
    </Field>
  );
}

/** One argument of a card, by its type, with its error from the editor's checks or the hub's refusal. */
export function ArgField({
  id,
  card,
  arg,
  error,
  tokens,
  devices,
  onChange,
}: {
  id: string;
  card: DraftCard;
  arg: CardArg;
  error?: string;
  tokens: readonly TokenChoice[];
  devices: readonly DeviceChoice[];
  onChange: (value: unknown) => void;
}) {
  const label = arg.title || arg.name;
  const value = card.args[arg.name];
  const common = { id, ...invalidProps(id, error) };
  switch (arg.type) {
    case 'checkbox':
      return (
        <Field id={id} label={label} error={error} checkbox>
          <input type="checkbox" {...common} checked={value === true} onChange={(event) => onChange(event.target.checked)} />
        </Field>
      );
    case 'dropdown':
      return (
        <Field id={id} label={label} error={error}>
          <select {...common} value={String(value ?? '')} onChange={(event) => onChange(event.target.value)}>
            {(arg.values ?? []).map((option) => (
              <option key={option.id} value={option.id}>
                {option.title}
              </option>
            ))}
          </select>
        </Field>
      );
    case 'range': {
      const number = typeof value === 'number' ? value : (arg.min ?? 0);
      const outputId = `${id}-value`;
      return (
        <Field
          id={id}
          label={label}
          error={error}
          hint={
            <output id={outputId} htmlFor={id}>
              {formatRange(number, arg)}
            </output>
          }
        >
          <input
            type="range"
            className="slider"
            {...common}
            min={arg.min ?? 0}
            max={arg.max ?? 1}
            step={arg.step ?? 'any'}
            value={number}
            aria-valuetext={formatRange(number, arg)}
            onChange={(event) => onChange(Number(event.target.value))}
          />
        </Field>
      );
    }
    case 'number':
      return (
        <TokenTextField
          id={id}
          label={label}
          numeric
          value={value === undefined || value === null ? '' : String(value)}
          error={error}
          placeholder={arg.placeholder}
          types={tokenTypesFor(arg)}
          tokens={tokens}
          onChange={(text) => onChange(numberFieldValue(text))}
        />
      );
    case 'date':
      return (
        <Field id={id} label={label} error={error}>
          <input
            type="date"
            {...common}
            value={dateToField(value)}
            onChange={(event) => onChange(dateFromField(event.target.value))}
          />
        </Field>
      );
    case 'time':
      return (
        <Field id={id} label={label} error={error}>
          <input
            type="time"
            {...common}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.target.value || undefined)}
          />
        </Field>
      );
    case 'color':
      return (
        <Field id={id} label={label} error={error}>
          <input
            type="color"
            className="color-field"
            {...common}
            value={typeof value === 'string' ? value : '#ffffff'}
            onChange={(event) => onChange(event.target.value)}
          />
        </Field>
      );
    case 'device': {
      const fits = deviceFilter(arg.filter);
      const chosen = value && typeof value === 'object' ? String((value as { id?: unknown }).id ?? '') : '';
      return (
        <Field id={id} label={label} error={error}>
          <select
            {...common}
            value={chosen}
            onChange={(event) => {
              const device = devices.find((d) => d.id === event.target.value);
              onChange(device ? { id: device.id, name: device.name } : undefined);
            }}
          >
            <option value="">{t.device}</option>
            {devices.filter(fits).map((device) => (
              <option key={device.id} value={device.id}>
                {device.name}
              </option>
            ))}
          </select>
        </Field>
      );
    }
    case 'autocomplete':
      return <AutocompleteField id={id} label={label} card={card} arg={arg} value={value} error={error} onChange={onChange} />;
    default:
      // text, code and whatever else an app declares: text with tokens.
      return (
        <TokenTextField
          id={id}
          label={label}
          value={typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value)}
          error={error}
          placeholder={arg.placeholder}
          types={tokenTypesFor(arg)}
          tokens={tokens}
          onChange={(text) => onChange(text === '' ? undefined : text)}
        />
      );
  }
}

/** A range between 0 and 1 reads as a percentage; others as their number. */
function formatRange(value: number, arg: CardArg): string {
  if ((arg.min ?? 0) === 0 && arg.max === 1) return `${Math.round(value * 100)} %`;
  return String(value);
}

/** A drop token: the card checks the value of one token of the fitting type(s), chosen from a list. */
export function DroptokenField({
  id,
  types,
  value,
  error,
  tokens,
  onChange,
}: {
  id: string;
  types: readonly TokenType[];
  value: string | null;
  error?: string;
  tokens: readonly TokenChoice[];
  onChange: (value: string | null) => void;
}) {
  return (
    <Field id={id} label={t.droptoken} error={error}>
      <select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value || null)} {...invalidProps(id, error)}>
        <option value="">{t.chooseToken}</option>
        {tokens
          .filter((token) => types.includes(token.type))
          .map((token) => (
            <option key={token.reference} value={token.reference}>
              {`${token.owner}: ${t.tokens.option(token.title, t.tokens.types[token.type] ?? token.type)}`}
            </option>
          ))}
      </select>
    </Field>
  );
}

/** A delay or duration: a number and its unit (seconds or minutes); empty for none. */
export function DelayField({
  id,
  label,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: { number: string; multiplier: 1 | 60 } | null | undefined;
  error?: string;
  onChange: (value: { number: string; multiplier: 1 | 60 } | null) => void;
}) {
  const [text, setText] = useState(value?.number ?? '');
  const [multiplier, setMultiplier] = useState<1 | 60>(value?.multiplier ?? 1);
  const hintId = `${id}-hint`;
  const send = (nextText: string, nextMultiplier: 1 | 60) =>
    onChange(nextText.trim() === '' ? null : { number: nextText.trim(), multiplier: nextMultiplier });
  return (
    <fieldset className="delay">
      <legend>{label}</legend>
      <div className="delay__row">
        <div className="field">
          <label htmlFor={id} className="visually-hidden">
            {label}
          </label>
          <input
            id={id}
            type="text"
            inputMode="decimal"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              send(event.target.value, multiplier);
            }}
            {...invalidProps(id, error)}
            aria-describedby={[hintId, error ? `${id}-error` : null].filter(Boolean).join(' ')}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-unit`} className="visually-hidden">
            {t.unitOf(label)}
          </label>
          <select
            id={`${id}-unit`}
            value={String(multiplier)}
            onChange={(event) => {
              const next = event.target.value === '60' ? 60 : 1;
              setMultiplier(next);
              send(text, next);
            }}
          >
            <option value="1">{t.seconds}</option>
            <option value="60">{t.minutes}</option>
          </select>
        </div>
      </div>
      <span id={hintId} className="muted">
        {t.noDelay}
      </span>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
