import { useCallback } from 'react';

/**
 * The second, explicit tap a destructive action asks for: the question, the action (focused when it appears, and
 * described by the question) and a way back.
 */
export function ConfirmDanger(props: {
  id: string;
  question: string;
  confirm: string;
  keep: string;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
}) {
  const focusOnMount = useCallback((button: HTMLButtonElement | null) => button?.focus(), []);
  return (
    <>
      <p id={props.id}>{props.question}</p>
      <p className="actions">
        <button
          type="button"
          className="button button--danger"
          disabled={props.busy}
          onClick={props.onConfirm}
          ref={focusOnMount}
          aria-describedby={props.id}
        >
          {props.confirm}
        </button>
        <button type="button" className="button button--quiet" onClick={props.onKeep}>
          {props.keep}
        </button>
      </p>
    </>
  );
}
