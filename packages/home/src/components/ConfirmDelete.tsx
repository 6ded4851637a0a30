import { useState } from 'react';

/**
 * Deleting after a second, explicit button: `Delete` (named `ask` for screen readers) shows `confirm` and `keep`;
 * `onConfirm` answers whether the deletion failed, which brings the first button back.
 */
export function ConfirmDelete(props: {
  label: string;
  ask: string;
  confirm: string;
  keep: string;
  onConfirm: () => Promise<boolean>;
}) {
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <>
      <button
        type="button"
        className="button button--small button--danger"
        onClick={() => void props.onConfirm().then((failed) => failed && setConfirming(false))}
      >
        {props.confirm}
      </button>
      <button type="button" className="button button--small button--quiet" onClick={() => setConfirming(false)}>
        {props.keep}
      </button>
    </>
  ) : (
    <button
      type="button"
      className="button button--small button--quiet"
      aria-label={props.ask}
      onClick={() => setConfirming(true)}
    >
      {props.label}
    </button>
  );
}
