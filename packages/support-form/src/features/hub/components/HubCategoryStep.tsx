import { useEffect, useState } from 'react';
import { texts } from '../../../config/texts';
import { GroupedOptionsStep } from '../../form/components/GroupedOptionsStep';
import type { StepProps } from '../../form/context';
import { useFormContext } from '../../form/context';
import { isHubStep, visibleHubGroups } from '../../tree';

/** The hub sub-category of the chosen hub's variant, with its model rules and the out-of-date warning. */
export function HubCategoryStep(props: StepProps) {
  const { diagnostics } = useFormContext();
  const hub = props.collected.hub;
  const [outOfDate, setOutOfDate] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    const pending = hub ? diagnostics(hub.id)?.outOfDate : undefined;
    if (!pending) return;
    pending.then((value) => {
      if (live) setOutOfDate(value);
    });
    return () => {
      live = false;
    };
  }, [hub, diagnostics]);
  const step = props.answer.step;
  if (!hub || !isHubStep(step)) return null;
  const showWarning = step !== 'hubCategoryCloud' && outOfDate === true;
  return (
    <GroupedOptionsStep
      {...props}
      step={step}
      question={texts.form.hubQuestion(hub.name)}
      groups={visibleHubGroups(step, hub)}
      loading={step !== 'hubCategoryCloud' && outOfDate === null}
      notice={
        showWarning ? (
          <p className="warning" role="alert">
            {texts.hubOutOfDate}
          </p>
        ) : null
      }
    />
  );
}
