import { APIError } from '@hearth/client/browser';
import { type FormEvent, useState } from 'react';
import { useServices } from '../../../app/services';
import { StepFrame } from '../../../components/StepFrame';
import { texts } from '../../../config/texts';
import { useFocusFirstInvalid } from '../../../hooks/useFocusFirstInvalid';
import { type StepProps, useFormContext } from '../../form/context';
import { MessageField } from '../../ticket/components/TextFields';
import { clearDraft, readDraft } from '../../ticket/hooks/draft';
import { messageField } from '../../ticket/utils/validation';

type SendError = { kind: 'offline' } | { kind: 'other'; message: string };

/** The e-mail to the developer: the hub sends the message with the app's diagnostic report (`apps.getAppStd`). */
export function EmailDeveloperStep({ answer, collected, status, reveal, update }: StepProps) {
  const { user, openPopup, popupOpen } = useFormContext();
  const services = useServices();
  const [draft] = useState(readDraft);
  const message = answer.data.message ?? messageField(draft.message);
  const showValidation = answer.data.showValidation ?? false;
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<SendError | null>(null);
  const definition = texts.steps.emailDeveloper;
  const { form, refused } = useFocusFirstInvalid();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || popupOpen) return;
    if (message.required && !message.valid) {
      update({ message, showValidation: true });
      refused();
      return;
    }
    const hubFacts = collected.hub;
    const hub = hubFacts ? user.hubs.find((h) => h.id === hubFacts.id) : undefined;
    if (!hub || !collected.appId) return;
    setSending(true);
    setError(null);
    try {
      await services.hub(hub).getAppStd(collected.appId, message.text);
      clearDraft();
      openPopup({ kind: 'developer' });
    } catch (cause) {
      // 500 is the client's "offline" (no address of the hub answered, or the hub could not reach the cloud); a
      // hub that stopped answering mid-session is a network error.
      if (cause instanceof APIError && (cause.statusCode === 500 || cause.code === 'network_error'))
        setError({ kind: 'offline' });
      else setError({ kind: 'other', message: (cause instanceof Error ? cause.message : String(cause)).replace(/\.+$/, '') });
    } finally {
      setSending(false);
    }
  };

  return (
    <StepFrame
      stepName="emailDeveloper"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
    >
      <form className="developer-form" noValidate onSubmit={submit} aria-busy={sending} ref={form}>
        <MessageField value={message} showValidation={showValidation} onChange={(field) => update({ message: field })} />
        <button type="submit" className="button button--primary" disabled={sending}>
          {sending ? texts.form.sending : texts.form.send}
        </button>
        {error?.kind === 'offline' ? (
          <p className="error-box" role="alert">
            {texts.developerHubOffline}
          </p>
        ) : error?.kind === 'other' ? (
          <div className="error-box" role="alert">
            <p>{texts.developerSendFailed(error.message)}</p>
            <p>
              {collected.supportUrl ? (
                <>
                  {texts.form.tryAgainOr}
                  <a href={collected.supportUrl}>{texts.form.emailHere}</a>.
                </>
              ) : (
                texts.developerSendFailedHint
              )}
            </p>
          </div>
        ) : null}
      </form>
    </StepFrame>
  );
}
