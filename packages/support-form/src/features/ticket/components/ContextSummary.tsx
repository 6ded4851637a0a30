import { SPECIAL_MODEL_PATTERN } from '../../../config/constants';
import { usePromise } from '../../../hooks/usePromise';
import { useFormContext } from '../../form/context';
import type { Collected } from '../../tree/types';

/** What the ticket carries besides the customer's words, gathered without asking: shown so nothing is hidden. */
export function ContextSummary({ collected }: { collected: Collected }) {
  const { user, diagnostics } = useFormContext();
  const hub = collected.hub;
  const context = hub ? diagnostics(hub.id) : null;
  const report = usePromise(context?.report);
  const underVoltage = usePromise(context?.underVoltage);
  const pending = 'Gathering…';
  return (
    <details className="context-summary">
      <summary>What we send along</summary>
      <dl>
        <dt>Account</dt>
        <dd>
          {user.firstname} {user.lastname} ({user.email})
        </dd>
        {hub ? (
          <>
            <dt>Hub</dt>
            <dd>
              {hub.name}, {hub.modelName} ({hub.model}), software {hub.softwareVersion || 'unknown'}
            </dd>
            {SPECIAL_MODEL_PATTERN.test(hub.model) ? (
              <>
                <dt>Under-voltage</dt>
                <dd>{underVoltage.status === 'fulfilled' ? underVoltage.value.percentage || 'None' : pending}</dd>
              </>
            ) : null}
            <dt>Diagnostic report</dt>
            <dd>{report.status === 'fulfilled' ? report.value : pending}</dd>
          </>
        ) : null}
        {collected.path.length > 0 ? (
          <>
            <dt>Topic</dt>
            <dd>{collected.path.join(' → ')}</dd>
          </>
        ) : null}
      </dl>
    </details>
  );
}
