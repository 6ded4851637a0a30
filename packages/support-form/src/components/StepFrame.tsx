import { type ReactNode, useEffect, useId, useRef } from 'react';
import { SCROLL_OFFSET_PX } from '../config/constants';
import { texts } from '../config/texts';

export type StepStatus = 'previous' | 'current' | 'next';

interface StepFrameProps {
  question: string;
  description?: string;
  status: StepStatus;
  loading?: boolean;
  /** A newly revealed step scrolls into view 120 px from the top and takes focus. */
  reveal?: boolean;
  stepName: string;
  children?: ReactNode;
}

/** One step of the form: a header with its question and description, marked previous, current or next. */
export function StepFrame({
  question,
  description,
  status,
  loading = false,
  reveal = false,
  stepName,
  children,
}: StepFrameProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!reveal || !headingRef.current) return;
    const section = headingRef.current.closest('section') ?? headingRef.current;
    const top = section.getBoundingClientRect().top + window.scrollY - SCROLL_OFFSET_PX;
    if (typeof window.scrollTo === 'function') {
      try {
        window.scrollTo({ top, behavior: 'smooth' });
      } catch {
        // jsdom and old browsers
      }
    }
    headingRef.current.focus({ preventScroll: true });
  }, [reveal]);
  return (
    <section
      className={`step step--${status}${loading ? ' step--loading' : ''}`}
      data-step={stepName}
      data-status={status}
      aria-labelledby={headingId}
      aria-busy={loading}
    >
      <header className="step__header">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="step__question">
          {question}
        </h2>
        {description ? <p className="step__description">{description}</p> : null}
        {loading ? (
          <p className="step__loading" role="status">
            {texts.form.stepLoading}
          </p>
        ) : null}
      </header>
      {children ? <div className="step__body">{children}</div> : null}
    </section>
  );
}
