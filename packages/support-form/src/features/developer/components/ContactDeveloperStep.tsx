import { StepFrame } from '../../../components/StepFrame';
import { COMMUNITY_URL } from '../../../config/constants';
import { texts } from '../../../config/texts';
import { localized } from '../../../types/entities';
import type { StepProps } from '../../form/context';

const external = (href: string, text: string) => (
  <a className="button" href={href} target="_blank" rel="noopener noreferrer">
    {text}
  </a>
);

/** Who made the app (verified or community developer) and how they prefer to be contacted. */
export function ContactDeveloperStep({ answer, collected, status, reveal, proceed }: StepProps) {
  const definition = texts.steps.contactDeveloper;
  const name = localized(collected.appBuild?.name) || collected.appId || texts.form.thisApp;
  const verified = collected.appAuthor?.verified === true;
  const url = collected.supportUrl;
  let contact: React.ReactNode;
  switch (collected.supportType) {
    case 'email':
      contact = (
        <>
          <p>{texts.form.byEmail}</p>
          <button type="button" className="button button--primary" onClick={proceed} aria-pressed={answer.value !== null}>
            {texts.form.emailDeveloper}
          </button>
        </>
      );
      break;
    case 'website':
      contact = (
        <>
          <p>{texts.form.website}</p>
          {url ? external(url, texts.form.visitWebsite) : null}
        </>
      );
      break;
    case 'bugs':
      contact = (
        <>
          <p>{texts.form.bugs}</p>
          {url ? external(url, texts.form.reportIssue) : null}
        </>
      );
      break;
    case 'forum':
      contact = (
        <>
          <p>{texts.form.forum}</p>
          {url ? external(url, texts.form.visitTopic) : null}
        </>
      );
      break;
    default:
      contact = (
        <>
          <p>{texts.form.none}</p>
          {external(COMMUNITY_URL, texts.form.askForum)}
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
