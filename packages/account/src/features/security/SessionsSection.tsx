import { useState } from 'react';
import { useAccount, useUser } from '../../app/account';
import { format, strings } from '../../app/strings';
import { Loading, Notice } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';
import { inOrder } from './sessions';

/** A short name for the device a browser or app reports. */
function deviceOf(userAgent: string | undefined): string {
  if (!userAgent) return strings.sessions.unknownDevice;
  const browser = /(Firefox|Edg|Chrome|Safari)\//.exec(userAgent)?.[1]?.replace('Edg', 'Edge');
  const system = /(Android|iPhone|iPad|Windows|Mac OS X|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS');
  if (browser && system) return strings.sessions.on(browser, system);
  if (browser || system) return (browser ?? system) as string;
  return userAgent.split(/[\s/]/)[0] || strings.sessions.unknownDevice;
}

const when = (iso: string) => format.dateTime(iso);

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
      setNotice(strings.sessions.ended);
    } catch (error) {
      setNotice(messageOf(error));
    }
    reload();
  };
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{strings.sessions.title}</h2>
      {notice ? <Notice>{notice}</Notice> : null}
      {sessions.state === 'loading' ? <Loading /> : null}
      {sessions.state === 'failed' ? <Notice kind="error">{strings.sessions.failed}</Notice> : null}
      {sessions.state === 'ready' ? (
        sessions.data.length === 0 ? (
          <p>{strings.sessions.none}</p>
        ) : (
          <ul className="list" aria-label={strings.sessions.list}>
            {inOrder(sessions.data).map((session) => (
              <li key={session._id} className="list__item">
                <div>
                  <strong>{deviceOf(session.userAgent)}</strong> · {session.clientName}
                  {session.current ? <span className="tag tag--ok">{strings.sessions.thisDevice}</span> : null}
                  <p className="meta">
                    {strings.sessions.lastUsed(when(session.lastUsedAt))}
                    {session.ip ? strings.sessions.from(session.ip) : ''}
                    {strings.sessions.signedIn(when(session.createdAt))}
                  </p>
                </div>
                {session.current ? null : (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => void end(session._id)}
                    aria-label={strings.sessions.signOutLabel(
                      deviceOf(session.userAgent),
                      session.clientName,
                      when(session.lastUsedAt),
                    )}
                  >
                    {strings.sessions.signOut}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      <h3>{strings.sessions.apps}</h3>
      {apps.state === 'ready' ? (
        apps.data.length === 0 ? (
          <p>{strings.sessions.noApps}</p>
        ) : (
          <ul className="list" aria-label={strings.sessions.apps}>
            {apps.data.map((app) => (
              <li key={app._id} className="list__item">
                <span>
                  <strong>{app.name}</strong> · {strings.sessions.appSignIns(app.sessions, format.number(app.sessions))}
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
        <label htmlFor="sign-out-remove-passkeys">{strings.sessions.alsoPasskeys}</label>
      </div>
      <button type="button" className="button button--danger" onClick={() => void signOut(true, removePasskeys)}>
        {strings.sessions.everywhere}
      </button>
    </section>
  );
}
