import { StepFrame } from '../../../components/StepFrame';
import { COMMUNITY_URL } from '../../../config/constants';
import { localized } from '../../../types/entities';
import type { StepProps } from '../../form/context';
import { tree } from '../../tree';

const external = (href: string, text: string) => (
  <a className="button" href={href} target="_blank" rel="noopener noreferrer">
    {text}
  </a>
);

/** Who made the app (verified or community developer) and how they prefer to be contacted. */
export function ContactDeveloperStep({ answer, collected, status, reveal, proceed }: StepProps) {
  const definition = tree.steps.contactDeveloper;
  const name = localized(collected.appBuild?.name) || collected.appId || 'This app';
  const verified = collected.appAuthor?.verified === true;
  const url = collected.supportUrl;
  let contact: React.ReactNode;
  switch (collected.supportType) {
    case 'email':
      contact = (
        <>
          <p>The developer prefers to be contacted by e-mail.</p>
          <button type="button" className="button button--primary" onClick={proceed} aria-pressed={answer.value !== null}>
            E-mail the developer
          </button>
        </>
      );
      break;
    case 'website':
      contact = (
        <>
          <p>The developer offers support on their website.</p>
          {url ? external(url, 'Visit the support website') : null}
        </>
      );
      break;
    case 'bugs':
      contact = (
        <>
          <p>The developer tracks problems on their issue page.</p>
          {url ? external(url, 'Report an issue') : null}
        </>
      );
      break;
    case 'forum':
      contact = (
        <>
          <p>The developer answers questions in the app's topic on the community forum.</p>
          {url ? external(url, 'Visit the forum topic') : null}
        </>
      );
      break;
    default:
      contact = (
        <>
          <p>The developer has not shared a way to contact them. The community forum may be able to help.</p>
          {external(COMMUNITY_URL, 'Ask on the community forum')}
        </>
      );
  }
  return (
    <StepFrame
      stepName="contactDeveloper"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
    >
      <p className="developer-kind">
        {verified ? `${name} is made by a verified developer.` : `${name} is made by a community developer.`}
      </p>
      {contact}
    </StepFrame>
  );
}
