import { useState } from 'react';
import { strings } from '../app/strings';

const t = strings.deleting;

/**
 * Deleting `name` after a second, explicit button: `Delete` (named "Delete <name>" for screen readers) shows
 * "Delete <name> now" and "Keep"; `onConfirm` answers whether the deletion failed, which brings the first button back.
 */
export function ConfirmDelete(props: { name: string; onConfirm: () => Promise<boolean> }) {
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <>
      <button
        type="button"
        className="button button--small button--danger"
        onClick={() => void props.onConfirm().then((failed) => failed && setConfirming(false))}
      >
        {t.confirm(props.name)}
      </button>
      <button type="button" className="button button--small button--quiet" onClick={() => setConfirming(false)}>
        {t.keep}
      </button>
    </>
  ) : (
    <button
      type="button"
      className="button button--small button--quiet"
      aria-label={t.ask(props.name)}
      onClick={() => setConfirming(true)}
    >
      {t.delete}
    </button>
  );
}
