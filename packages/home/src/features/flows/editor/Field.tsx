import type { KeyboardEvent, ReactNode } from 'react';
import { FieldError } from '../../../components/FieldError';

/** A field with its label above, its hint and error below (ids tie them together for screen readers). */
export function Field({
  id,
  label,
  error,
  hint,
  checkbox,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  checkbox?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`field${checkbox ? ' field--checkbox' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Arrow keys move focus through the buttons `selector` finds (a list of choices); others do what they do. */
export function moveFocus(event: KeyboardEvent, selector: string) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const buttons = [...document.querySelectorAll<HTMLElement>(selector)];
  const at = buttons.indexOf(event.currentTarget as HTMLElement);
  const next = buttons[at + (event.key === 'ArrowDown' ? 1 : -1)];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}
