import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useAccount } from '../../app/account';
import { strings } from '../../app/strings';
import { Loading, Notice, useSubmit } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { takeLinkToken } from '../../lib/fragment';
import { INVITE_TOKEN_KEY as TOKEN_KEY } from '../../lib/pending-invite';
import { useLoad } from '../../lib/useLoad';
import { roleLabel } from './labels';
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
        <strong>{preview.data.inviterName}</strong>
        {strings.invite.invites}
        <strong>{preview.data.homeyName}</strong>
        {strings.invite.asRole(strings.roleInSentence(roleLabel(preview.data.role)))}
      </p>
    ) : null;

  let body: React.ReactNode;
  if (!token) body = <Notice kind="error">{strings.invite.needsLink}</Notice>;
  else if (preview.state === 'failed' && !joined) body = <Notice kind="error">{messageOf(preview.error)}</Notice>;
  else if (!user)
    body = (
      <>
        {offer ?? (preview.state === 'loading' ? <Loading /> : null)}
        <p>
          {strings.invite.signInFirst}
          {preview.state === 'ready' && preview.data ? (
            <>
              {' '}
              {strings.invite.withEmail} <strong>{preview.data.email}</strong>
            </>
          ) : null}{' '}
          {strings.invite.comeBack}
        </p>
        <div className="actions actions--stacked">
          <button type="button" className="button button--primary" onClick={() => signIn(ACCOUNT_PAGES.invite)}>
            {strings.invite.signInToAccept}
          </button>
          <Link href={ACCOUNT_PAGES.signUp} className="button">
            {strings.common.createAccount}
          </Link>
        </div>
      </>
    );
  else if (joined)
    body = (
      <>
        <Notice kind="success">{strings.invite.joined}</Notice>
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
          {strings.invite.accept}
        </button>
      </>
    );
  return (
    <section className="card">
      <h1 tabIndex={-1}>{strings.invite.title}</h1>
      {body}
    </section>
  );
}
