import { type ReactNode, useCallback } from 'react';

interface Props {
  /** The id of the question, which describes the confirming button. */
  id: string;
  /** What happens, said before it is done. */
  question: ReactNode;
  confirm: string;
  keep: string;
  busy: boolean;
  onConfirm(): void;
  onKeep(): void;
  /** The hub's refusal of an earlier answer, if any. */
  error?: ReactNode;
  className?: string;
  /** `false` inside a card of its own (a section that is already the danger card): no second frame. */
  framed?: boolean;
}

/**
 * A destructive step's question and its two answers: the confirming button takes focus when the question appears
 * (once), so a keyboard user answers it next; it is described by the question, so a screen reader reads both.
 */
export function ConfirmCard({ id, question, confirm, keep, busy, onConfirm, onKeep, error, className, framed = true }: Props) {
  const focusOnMount = useCallback((button: HTMLButtonElement | null) => button?.focus(), []);
  const frame = framed ? 'card danger' : '';
  return (
    <div className={[frame, className].filter(Boolean).join(' ') || undefined}>
      <div id={id}>{question}</div>
      {error}
      <p className="actions">
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          onClick={onConfirm}
          ref={focusOnMount}
          aria-describedby={id}
        >
          {confirm}
        </button>
        <button type="button" className="button button--quiet" onClick={onKeep}>
          {keep}
        </button>
      </p>
    </div>
  );
}
