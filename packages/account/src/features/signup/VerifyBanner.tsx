import { useAccount, useUser } from '../../app/account';
import { useSubmit } from '../../components/forms';

/** Shown on every page while the address is unverified: what it holds back, and a new link. */
export function VerifyBanner() {
  const { cloud } = useAccount();
  const user = useUser();
  const resend = useSubmit(async () => {
    await cloud.services.cloud.resendVerificationEmail();
    return `We sent a new link to ${user.email}.`;
  });
  return (
    <section className="banner" aria-label="Verify your e-mail address">
      <p>
        Verify your e-mail address: open the link we sent to <strong>{user.email}</strong>. Until then you cannot claim hubs.
      </p>
      <button type="button" className="button button--small" onClick={() => void resend.onSubmit()} disabled={resend.busy}>
        Send the link again
      </button>
      <p aria-live="polite" className="banner__status">
        {resend.done ?? resend.error?.message ?? ''}
      </p>
    </section>
  );
}
