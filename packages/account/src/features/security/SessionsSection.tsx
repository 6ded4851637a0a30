import { useState } from 'react';
import { useAccount, useUser } from '../../app/account';
import { Loading, Notice } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';
import { inOrder } from './sessions';

/** A short name for the device a browser or app reports. */
function deviceOf(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = /(Firefox|Edg|Chrome|Safari)\//.exec(userAgent)?.[1]?.replace('Edg', 'Edge');
  const system = /(Android|iPhone|iPad|Windows|Mac OS X|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS');
  if (browser || system) return [browser, system].filter(Boolean).join(' on ');
  return userAgent.split(/[\s/]/)[0] || 'Unknown device';
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Sign-ins and authorised apps: each can be ended, or all of them at once. */
export function SessionsSection({ generation }: { generation: number }) {
  const { cloud, signOut } = useAccount();
  const user = useUser();
  const [sessions, reload] = useLoad(
    () => cloud.services.cloud.getUserSessions({ userId: user._id }),
    [cloud, user._id, generation],
  );
  const [apps] = useLoad(() => cloud.services.cloud.getPersonalAccessTokenApps(), [cloud, generation]);
  const [notice, setNotice] = useState<string | null>(null);
  // A passkey is a sign-in that outlives every session: ending them all may mean removing those too.
  const [removePasskeys, setRemovePasskeys] = useState(false);
  const end = async (sessionId: string) => {
    try {
      await cloud.services.cloud.deleteUserSession({ userId: user._id, sessionId });
      setNotice('That sign-in is ended.');
    } catch (error) {
      setNotice(messageOf(error));
    }
    reload();
  };
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {notice ? <Notice>{notice}</Notice> : null}
      {sessions.state === 'loading' ? <Loading /> : null}
      {sessions.state === 'failed' ? <Notice kind="error">Your sign-ins could not be loaded.</Notice> : null}
      {sessions.state === 'ready' ? (
        sessions.data.length === 0 ? (
          <p>No sign-ins.</p>
        ) : (
          <ul className="list" aria-label="Sign-ins">
            {inOrder(sessions.data).map((session) => (
              <li key={session._id} className="list__item">
                <div>
                  <strong>{deviceOf(session.userAgent)}</strong> · {session.clientName}
                  {session.current ? <span className="tag tag--ok">This device</span> : null}
                  <p className="meta">
                    Last used {when(session.lastUsedAt)}
                    {session.ip ? ` · from ${session.ip}` : ''} · signed in {when(session.createdAt)}
                  </p>
                </div>
                {session.current ? null : (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => void end(session._id)}
                    aria-label={`Sign out ${deviceOf(session.userAgent)}, ${session.clientName}, last used ${when(session.lastUsedAt)}`}
                  >
                    Sign out
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      <h3>Authorised apps</h3>
      {apps.state === 'ready' ? (
        apps.data.length === 0 ? (
          <p>No other app holds a sign-in to your account.</p>
        ) : (
          <ul className="list" aria-label="Authorised apps">
            {apps.data.map((app) => (
              <li key={app._id} className="list__item">
                <span>
                  <strong>{app.name}</strong> · {app.sessions} sign-in{app.sessions === 1 ? '' : 's'}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Loading />
      )}
      <div className="check">
        <input
          id="sign-out-remove-passkeys"
          type="checkbox"
          checked={removePasskeys}
          onChange={(e) => setRemovePasskeys(e.target.checked)}
        />
        <label htmlFor="sign-out-remove-passkeys">Also remove my passkeys</label>
      </div>
      <button type="button" className="button button--danger" onClick={() => void signOut(true, removePasskeys)}>
        Sign out everywhere
      </button>
    </section>
  );
}
