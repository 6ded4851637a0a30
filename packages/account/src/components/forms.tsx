import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { strings } from '../app/strings';
import { type FormError, formError } from '../lib/errors';

/** A labelled input with its hint and its error beside it, announced and tied to it. */
export function Field({
  label,
  hint,
  error,
  children,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; error?: string | null; children?: ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {children}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The password a person confirms a change with. */
export function CurrentPassword({
  value,
  onChange,
  error,
  label = strings.common.yourPassword,
  hint,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  label?: string;
  hint?: ReactNode;
}) {
  return (
    <Field
      label={label}
      hint={hint}
      type="password"
      autoComplete="current-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
    />
  );
}

/** A notice: `error` is announced at once (alert), others politely (status). */
export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'error' | 'warning'; children: ReactNode }) {
  return (
    <div className={`notice notice--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Loading({ label = strings.common.loading }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-busy="true">
      {label}
    </p>
  );
}

export function SubmitButton({ busy, children, danger }: { busy: boolean; children: ReactNode; danger?: boolean }) {
  return (
    <button
      type="submit"
      className={danger ? 'button button--danger' : 'button button--primary'}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? strings.common.pleaseWait : children}
    </button>
  );
}

/**
 * A form's submission: runs `action`, keeps it from running twice, and holds the server's refusal (`error.field`
 * names the field to show it beside; `null` for the whole form) or the success message.
 */
export function useSubmit(action: () => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const message = await action();
      if (typeof message === 'string') setDone(message);
    } catch (caught) {
      setError(formError(caught));
    } finally {
      setBusy(false);
    }
  };
  /** The error to show beside `field`, if the refusal named it. */
  const fieldError = (field: string) => (error?.field === field ? error.message : null);
  /** The error of the whole form: one that names no field of this form. */
  const formLevel = (fields: readonly string[]) => (error && !fields.includes(error.field ?? '') ? error.message : null);
  return { busy, error, done, onSubmit, fieldError, formLevel, setDone };
}
