import { SPECIAL_MODEL_PATTERN } from '../../../config/constants';
import { texts } from '../../../config/texts';
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
  const pending = texts.form.gathering;
  return (
    <details className="context-summary">
      <summary>{texts.form.sentAlong}</summary>
      <dl>
        <dt>{texts.form.account}</dt>
        <dd>
          {user.firstname} {user.lastname} ({user.email})
        </dd>
        {hub ? (
          <>
            <dt>{texts.form.hub}</dt>
            <dd>{texts.form.hubLine(hub.name, hub.modelName, hub.model, hub.softwareVersion || texts.form.unknown)}</dd>
            {SPECIAL_MODEL_PATTERN.test(hub.model) ? (
              <>
                <dt>{texts.form.underVoltage}</dt>
                <dd>{underVoltage.status === 'fulfilled' ? underVoltage.value.percentage || texts.form.noneValue : pending}</dd>
              </>
            ) : null}
            <dt>{texts.form.report}</dt>
            <dd>{report.status === 'fulfilled' ? report.value : pending}</dd>
          </>
        ) : null}
        {collected.path.length > 0 ? (
          <>
            <dt>{texts.form.topic}</dt>
            <dd>{collected.path.join(' → ')}</dd>
          </>
        ) : null}
      </dl>
    </details>
  );
}
