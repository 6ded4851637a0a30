import { useAccount, useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { useSubmit } from '../../components/forms';

/** Shown on every page while the address is unverified: what it holds back, and a new link. */
export function VerifyBanner() {
  const { cloud } = useAccount();
  const user = useUser();
  const resend = useSubmit(async () => {
    await cloud.services.cloud.resendVerificationEmail();
    return strings.verify.sentAgain(user.email);
  });
  return (
    <section className="banner" aria-label={strings.verify.banner}>
      <p>
        {strings.verify.bannerBefore}
        <strong>{user.email}</strong>
        {strings.verify.bannerAfter}
      </p>
      <button type="button" className="button button--small" onClick={() => void resend.onSubmit()} disabled={resend.busy}>
        {strings.verify.sendAgain}
      </button>
      <p aria-live="polite" className="banner__status">
        {resend.done ?? resend.error?.message ?? ''}
      </p>
    </section>
  );
}
