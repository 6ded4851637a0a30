import { StepFrame } from '../../../components/StepFrame';
import { COMMUNITY_URL } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { StepProps } from '../../form/context';

/** Ask the community: the forum link, and why support cannot help with custom use-cases. */
export function CommunityStep({ status, reveal }: StepProps) {
  const definition = texts.steps.community;
  return (
    <StepFrame
      stepName="community"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
    >
      <p>
        <a className="button button--primary" href={COMMUNITY_URL} target="_blank" rel="noopener noreferrer">
          {texts.form.visitCommunity}
        </a>
      </p>
      <p className="note">{texts.form.customUseCases}</p>
    </StepFrame>
  );
}
