import { format, strings } from '../../app/strings';
import { cardWords, type Trace, type TraceStep } from './model';

const t = strings.flows;

const time = (at: string | number) => format.time(at);

/** One step of a run in words: what ran (the card's title from the hub, or its id in words) and how it went. */
export function stepWords(step: TraceStep): string {
  const what =
    step.kind === 'group'
      ? t.step.group(step.group ?? '')
      : step.kind === 'delay'
        ? t.step.delay
        : step.kind === 'note'
          ? t.step.note
          : `${t.step[step.kind as 'condition' | 'action' | 'node'] ?? step.kind} ${step.title ?? cardWords(step.card)}`.trim();
  return `${what}: ${step.outcome}${step.message ? ` — ${step.message}` : ''}`;
}

/** Each run as a timeline: when and how it started, each step in order with its outcome, and how it ended. */
export function TraceList({ traces }: { traces: Trace[] }) {
  if (traces.length === 0) return <p className="muted">{t.noRuns}</p>;
  return (
    <ol className="traces">
      {traces.map((trace) => (
        <li key={trace.id} className={`trace trace--${trace.status}`} data-trace-id={trace.id}>
          <p className="trace__head">
            <strong className="trace__status">{strings.values.runStatus[trace.status] ?? trace.status}</strong>{' '}
            <span className="muted">
              {t.startedAt(time(trace.startedAt))}
              {trace.finishedAt ? `, ${t.took(Date.parse(trace.finishedAt) - Date.parse(trace.startedAt))}` : ''}
            </span>
          </p>
          {trace.steps.length > 0 ? (
            <ol className="trace__steps" aria-label={t.stepsOf(time(trace.startedAt))}>
              {trace.steps.map((step, index) => (
                // Steps only ever append, so their position is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <li key={index} className={`step step--${step.outcome}`}>
                  <span className="step__time">{time(step.at)}</span> {stepWords(step)}
                </li>
              ))}
            </ol>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
