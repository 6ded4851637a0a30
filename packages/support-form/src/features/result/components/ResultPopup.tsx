import { Modal } from '../../../components/Modal';
import { texts } from '../../../config/texts';
import type { Popup } from '../../form/context';

/**
 * The result of a send: modal, focus trapped, page scrolling locked, with the ticket's number and the way back to
 * the knowledge base. Closing it (Escape, the close button) starts the form over.
 */
export function ResultPopup({
  popup,
  knowledgeBaseUrl,
  onClose,
}: {
  popup: Popup;
  knowledgeBaseUrl: string;
  onClose: () => void;
}) {
  return (
    <Modal title={popup.kind === 'ticket' ? texts.ticketSentTitle : texts.developerSentText} onClose={onClose}>
      {popup.kind === 'ticket' ? <p>{texts.ticketSentText}</p> : null}
      {popup.kind === 'ticket' && popup.ticketId ? (
        <p>
          {texts.ticketNumber}: <span className="ticket-number">{popup.ticketId}</span>
        </p>
      ) : null}
      <a className="button button--primary" href={knowledgeBaseUrl}>
        {texts.returnToKnowledgeBase}
      </a>
    </Modal>
  );
}
