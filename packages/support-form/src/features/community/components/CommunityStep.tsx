import { StepFrame } from '../../../components/StepFrame';
import { COMMUNITY_URL } from '../../../config/constants';
import type { StepProps } from '../../form/context';
import { tree } from '../../tree';

/** Ask the community: the forum link, and why support cannot help with custom use-cases. */
export function CommunityStep({ status, reveal }: StepProps) {
  const definition = tree.steps.community;
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
          Visit the community forum
        </a>
      </p>
      <p className="note">
        Please note: our support team cannot help with custom use-cases, such as building a specific Flow, script or dashboard.
        The community is the best place for those.
      </p>
    </StepFrame>
  );
}
