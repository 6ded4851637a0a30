import { type FormEvent, useRef, useState } from 'react';
import { useServices } from '../../../app/services';
import { StepFrame } from '../../../components/StepFrame';
import { texts } from '../../../config/texts';
import { useFocusFirstInvalid } from '../../../hooks/useFocusFirstInvalid';
import { randomId } from '../../../lib/id';
import { type StepProps, useFormContext } from '../../form/context';
import { clearDraft, readDraft } from '../hooks/draft';
import { buildTicketPayload } from '../utils/payload';
import { messageField, subjectField } from '../utils/validation';
import { Attachments } from './Attachments';
import { ContextSummary } from './ContextSummary';
import { MessageField, SubjectField } from './TextFields';

/** "We're happy to help.": subject, message and attachments, sent as a support ticket with the gathered context. */
export function TicketStep({ answer, collected, status, reveal, update }: StepProps) {
  const { user, diagnostics, openPopup, popupOpen } = useFormContext();
  const services = useServices();
  const [draft] = useState(readDraft);
  const subject = answer.data.subject ?? subjectField(draft.subject);
  const message = answer.data.message ?? messageField(draft.message);
  const files = answer.data.files ?? [];
  const showValidation = answer.data.showValidation ?? false;
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Record<string, number>>({});
  const idempotencyKey = useRef(randomId());
  const uploaded = useRef(new Map<File, string>());
  const definition = texts.steps.ticket;
  const { form, refused } = useFocusFirstInvalid();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || popupOpen) return;
    if ((subject.required && !subject.valid) || (message.required && !message.valid)) {
      update({ subject, message, showValidation: true });
      refused();
      return;
    }
    setSending(true);
    setError(null);
    try {
      const uploads = await Promise.allSettled(
        files.map(async (file) => {
          const known = uploaded.current.get(file);
          if (known) return known;
          setProgress((p) => ({ ...p, [file.name]: 0 }));
          const token = await services.uploadAttachment(file, (fraction) =>
            setProgress((p) => ({ ...p, [file.name]: fraction })),
          );
          uploaded.current.set(file, token);
          return token;
        }),
      );
      const failed = uploads.findIndex((u) => u.status === 'rejected');
      if (failed >= 0) {
        setError(texts.uploadFailed(files[failed]!.name));
        return;
      }
      const hub = collected.hub;
      const context = hub ? diagnostics(hub.id) : null;
      const [diagnosticReport, underVoltage, apps, hubInfo] = await Promise.all([
        context?.report ?? Promise.resolve(''),
        context?.underVoltage ?? Promise.resolve({ percentage: '', ratio: null }),
        context?.apps ?? Promise.resolve([]),
        context?.info ?? Promise.resolve(null),
      ]);
      const payload = buildTicketPayload({
        user,
        collected,
        subject: subject.text,
        message: message.text,
        uploadTokens: uploads.map((u) => (u as PromiseFulfilledResult<string>).value),
        apps: apps.length > 0 ? apps : (hub?.apps ?? []),
        diagnosticReport,
        underVoltage,
        hubInfo,
      });
      const result = await services.createTicket(payload, idempotencyKey.current);
      if (!result.ticketCreated) throw new Error('Ticket not created');
      clearDraft();
      openPopup({ kind: 'ticket', ticketId: result.id });
    } catch (cause) {
      console.error('Sending the ticket failed', cause);
      setError(texts.sendFailed);
    } finally {
      setSending(false);
    }
  };

  return (
    <StepFrame
      stepName="ticket"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
    >
      <form className="ticket-form" noValidate onSubmit={submit} aria-busy={sending} ref={form}>
        <SubjectField value={subject} showValidation={showValidation} onChange={(field) => update({ subject: field, message })} />
        <MessageField value={message} showValidation={showValidation} onChange={(field) => update({ message: field, subject })} />
        <Attachments
          files={files}
          progress={progress}
          disabled={sending}
          onChange={(next) => update({ files: next, subject, message })}
        />
        <ContextSummary collected={collected} />
        <button type="submit" className="button button--primary" disabled={sending}>
          {sending ? texts.form.sending : texts.form.send}
        </button>
        {error ? (
          <p className="error-box" role="alert">
            {error}
          </p>
        ) : (
          <p className="disclaimer">{collected.hub ? texts.disclaimerWithHub : texts.disclaimer}</p>
        )}
      </form>
    </StepFrame>
  );
}
