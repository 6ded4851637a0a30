import { Modal } from '../../../components/Modal';
import { texts } from '../../../config/texts';
import type { PopupKind } from '../../form/context';

/** The result of a send: modal, focus trapped, page scrolling locked, with the way back to the knowledge base. */
export function ResultPopup({ kind, knowledgeBaseUrl }: { kind: PopupKind; knowledgeBaseUrl: string }) {
  return (
    <Modal title={kind === 'ticket' ? texts.ticketSentTitle : texts.developerSentText}>
      {kind === 'ticket' ? <p>{texts.ticketSentText}</p> : null}
      <a className="button button--primary" href={knowledgeBaseUrl}>
        {texts.returnToKnowledgeBase}
      </a>
    </Modal>
  );
}
