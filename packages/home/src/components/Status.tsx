import { strings } from '../app/strings';
import { messageOf } from '../lib/errors';

/** A page still loading: its title, and a polite word for screen readers. */
export function Loading({ title }: { title?: string }) {
  return (
    <>
      {title ? <h1 tabIndex={-1}>{title}</h1> : null}
      <p role="status" className="muted">
        {strings.loading}
      </p>
    </>
  );
}

/** A page whose data the hub did not give: why, and a way to try again. */
export function Failed({ error, title, retry }: { error: unknown; title?: string; retry?: () => void }) {
  return (
    <>
      {title ? <h1 tabIndex={-1}>{title}</h1> : null}
      <p role="alert" className="form-error">
        {messageOf(error)}
      </p>
      <button type="button" className="button" onClick={retry ?? (() => window.location.reload())}>
        {strings.retry}
      </button>
    </>
  );
}
