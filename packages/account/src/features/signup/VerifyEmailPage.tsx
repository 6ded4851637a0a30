import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useAccount } from '../../app/account';
import { strings } from '../../app/strings';
import { Loading, Notice } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { takeLinkToken } from '../../lib/fragment';
import { afterSignIn } from '../../lib/pending-invite';

const TOKEN_KEY = 'hearth-account:verify';

/** Opens a verification link: the address is verified (or the account moves to it). Needs no sign-in. */
export function VerifyEmailPage() {
  const { cloud, user, reloadUser, signIn } = useAccount();
  const [outcome, setOutcome] = useState<{ email: string } | { error: string } | null>(null);
  useEffect(() => {
    const token = takeLinkToken(TOKEN_KEY);
    if (!token) {
      setOutcome({ error: strings.verify.needsLink });
      return;
    }
    cloud.services.cloud.verifyEmail({ token }).then(
      async (answer) => {
        sessionStorage.removeItem(TOKEN_KEY);
        setOutcome(answer);
        await reloadUser();
      },
      (error: unknown) => {
        sessionStorage.removeItem(TOKEN_KEY);
        setOutcome({ error: messageOf(error) });
      },
    );
  }, [cloud, reloadUser]);
  if (!outcome) return <Loading label={strings.verify.verifying} />;
  return (
    <section className="card">
      <h1 tabIndex={-1}>{'email' in outcome ? strings.verify.verified : strings.verify.broken}</h1>
      {'email' in outcome ? (
        <Notice kind="success">
          <strong>{outcome.email}</strong>
          {strings.verify.verifiedAfter}
        </Notice>
      ) : (
        <Notice kind="error">{outcome.error}</Notice>
      )}
      {user ? (
        <Link href={afterSignIn()} className="button button--primary">
          {afterSignIn() === '/' ? strings.verify.toAccount : strings.verify.toInvitation}
        </Link>
      ) : (
        <button type="button" className="button button--primary" onClick={() => signIn(afterSignIn())}>
          {strings.common.signIn}
        </button>
      )}
    </section>
  );
}
