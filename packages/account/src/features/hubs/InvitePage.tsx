import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useAccount } from '../../app/account';
import { Loading, Notice, useSubmit } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { takeLinkToken } from '../../lib/fragment';
import { INVITE_TOKEN_KEY as TOKEN_KEY } from '../../lib/pending-invite';
import { useLoad } from '../../lib/useLoad';
import { ROLE_LABELS } from './labels';
import { OpenHubLink } from './OpenHubPage';

/** An invitation link: sign in (or sign up) and join the hub's household. */
export function InvitePage() {
  const { cloud, user, signIn, reloadUser } = useAccount();
  const [token] = useState(() => takeLinkToken(TOKEN_KEY));
  const [joined, setJoined] = useState<{ id: string; name: string } | null>(null);
  // Read signed in or not: someone without an account yet learns who invites them to what before signing up.
  const [preview] = useLoad(
    () => (token ? cloud.services.cloud.previewInvite({ token }) : Promise.resolve(null)),
    [cloud, user?._id, token],
  );
  const accept = useSubmit(async () => {
    if (!user || !token || preview.state !== 'ready' || !preview.data) return;
    await cloud.services.cloud.acceptInvite({ userId: user._id, inviterId: preview.data.inviterId, token });
    sessionStorage.removeItem(TOKEN_KEY);
    setJoined({ id: preview.data.homeyId, name: preview.data.homeyName });
    await reloadUser();
  });
  useEffect(() => {
    if (preview.state === 'failed') sessionStorage.removeItem(TOKEN_KEY);
  }, [preview.state]);

  const offer =
    preview.state === 'ready' && preview.data ? (
      <p>
        <strong>{preview.data.inviterName}</strong> invites you to the household of <strong>{preview.data.homeyName}</strong> as{' '}
        {ROLE_LABELS[preview.data.role]?.toLowerCase()}.
      </p>
    ) : null;

  let body: React.ReactNode;
  if (!token) body = <Notice kind="error">This page needs the link from your invitation e-mail. Open that link again.</Notice>;
  else if (preview.state === 'failed' && !joined) body = <Notice kind="error">{messageOf(preview.error)}</Notice>;
  else if (!user)
    body = (
      <>
        {offer ?? (preview.state === 'loading' ? <Loading /> : null)}
        <p>
          Sign in to accept the invitation, or create an account
          {preview.state === 'ready' && preview.data ? (
            <>
              {' '}
              with <strong>{preview.data.email}</strong>
            </>
          ) : null}{' '}
          first: after signing in you come back here.
        </p>
        <div className="actions actions--stacked">
          <button type="button" className="button button--primary" onClick={() => signIn(ACCOUNT_PAGES.invite)}>
            Sign in to accept
          </button>
          <Link href={ACCOUNT_PAGES.signUp} className="button">
            Create account
          </Link>
        </div>
      </>
    );
  else if (joined)
    body = (
      <>
        <Notice kind="success">You joined the household.</Notice>
        <OpenHubLink id={joined.id} name={joined.name} primary />
      </>
    );
  else if (preview.state === 'loading') body = <Loading />;
  else if (preview.state === 'ready' && preview.data)
    body = (
      <>
        {offer}
        {accept.error ? <Notice kind="error">{accept.error.message}</Notice> : null}
        <button type="button" className="button button--primary" onClick={() => void accept.onSubmit()} disabled={accept.busy}>
          Accept invitation
        </button>
      </>
    );
  return (
    <section className="card">
      <h1 tabIndex={-1}>Household invitation</h1>
      {body}
    </section>
  );
}
