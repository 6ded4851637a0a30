import type { ReactNode } from 'react';
import { OptionTiles } from '../../../components/OptionTiles';
import { StepFrame } from '../../../components/StepFrame';
import { groupTitle, optionLabel, texts } from '../../../config/texts';
import { choiceOf, type OptionGroup, type StepId } from '../../tree';
import type { StepProps } from '../context';

/** An action step whose options come from the tree's data, grouped under titles. */
export function GroupedOptionsStep({
  step,
  groups,
  answer,
  status,
  reveal,
  choose,
  loading,
  notice,
  question,
}: StepProps & { step: StepId; groups: readonly OptionGroup[]; loading?: boolean; notice?: ReactNode; question?: string }) {
  const definition = texts.steps[step];
  const select = (value: string) => {
    const option = groups.flatMap((g) => g.options).find((o) => o.value === value);
    if (option) choose(choiceOf(option));
  };
  return (
    <StepFrame
      stepName={step}
      question={question ?? definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
      loading={loading}
    >
      {notice}
      {groups.map((group) => (
        <OptionTiles
          key={group.title}
          title={groupTitle(group.title)}
          tiles={group.options.map((o) => ({ value: o.value, label: optionLabel(o) }))}
          selected={answer.value}
          onSelect={select}
        />
      ))}
    </StepFrame>
  );
}
