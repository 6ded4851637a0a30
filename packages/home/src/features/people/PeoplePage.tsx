import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';

const t = strings.people;

interface Member {
  id: string;
  name: string;
  role: string;
  present: boolean;
  asleep: boolean;
  enabled: boolean;
}

interface Token {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  lastUsed: string | null;
}

/** What a new token may do: everything this session may, or only reading. */
const READ_ONLY = ['homey.device.readonly', 'homey.zone.readonly', 'homey.flow.readonly', 'homey.insights.readonly'];

/** The caller's personal access tokens: names, scopes and dates (never their values), create one, revoke one. */
function Tokens() {
  const { hub } = useHub();
  const notify = useNotify();
  const [generation, setGeneration] = useState(0);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const tokens = useAsync(async () => (await hub.users.getPersonalAccessTokens()) as unknown as Token[], [hub, generation]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name')).trim();
    const scopes = form.get('access') === 'read' ? READ_ONLY : (hub.session?.intersectedScopes ?? ['homey']);
    try {
      const answer = (await hub.users.createPersonalAccessToken({ name, scopes })) as unknown as { token: string };
      setCreated({ name, token: answer.token });
      (event.target as HTMLFormElement).reset();
      setGeneration((g) => g + 1);
    } catch (error) {
      notify('error', messageOf(error));
    }
  }
  async function revoke(token: Token) {
    if (!window.confirm(t.revokeConfirm(token.name))) return;
    try {
      await hub.users.deletePersonalAccessToken({ id: token.id });
      setGeneration((g) => g + 1);
    } catch (error) {
      notify('error', messageOf(error));
    }
  }

  return (
    <section aria-labelledby="tokens">
      <h2 id="tokens">{t.tokens}</h2>
      <p className="muted">{t.tokensIntro}</p>
      {tokens.state === 'failed' ? <Failed error={tokens.error} /> : null}
      {tokens.state === 'loading' ? <Loading /> : null}
      {tokens.state === 'ready' ? (
        tokens.data.length === 0 ? (
          <p>{t.noTokens}</p>
        ) : (
          <ul className="rows">
            {tokens.data.map((token) => (
              <li key={token.id} className="row" data-token-id={token.id}>
                <span className="row__main">
                  <span>
                    <strong>{token.name}</strong>
                    <br />
                    <span className="muted">
                      {t.scopes(token.scopes)} · {t.created(new Date(token.createdAt).toLocaleDateString())}
                      {token.lastUsed ? ` · ${t.lastUsed(new Date(token.lastUsed).toLocaleString())}` : ''}
                    </span>
                  </span>
                </span>
                <button
                  type="button"
                  className="button button--small button--quiet"
                  aria-label={t.revokeName(token.name)}
                  onClick={() => void revoke(token)}
                >
                  {t.revoke}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {created ? (
        <div className="card" role="status">
          <p>{t.createdOnce(created.name)}</p>
          <code className="secret">{created.token}</code>
        </div>
      ) : null}
      <form className="card" onSubmit={(event) => void create(event)}>
        <h3>{t.newToken}</h3>
        <label className="field">
          <span>{t.tokenName}</span>
          <input name="name" required maxLength={255} />
        </label>
        <label className="field">
          <span>{t.access}</span>
          <select name="access" defaultValue="read">
            <option value="read">{t.readOnly}</option>
            <option value="all">{t.everything}</option>
          </select>
        </label>
        <button type="submit" className="button">
          {t.create}
        </button>
      </form>
    </section>
  );
}

/** The household's members with their roles and presence, and the caller's access tokens. */
export function PeoplePage() {
  const { hub } = useHub();
  // Read over the API, not from the users manager's realtime cache: the hub announces no token events, so a cached
  // token list would keep a revoked token and miss its dates.
  const members = useAsync(async () => Object.values((await hub.users.getUsers()) as unknown as Record<string, Member>), [hub]);
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <section aria-labelledby="members">
        <h2 id="members">{t.members}</h2>
        {members.state === 'failed' ? <Failed error={members.error} /> : null}
        {members.state === 'loading' ? <Loading /> : null}
        {members.state === 'ready' ? (
          <ul className="rows">
            {[...members.data]
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((member) => (
                <li key={member.id} className="row" data-user-id={member.id}>
                  <span className="row__main">
                    <strong>{member.name}</strong>
                    <span className="badge">{t.roles[member.role as keyof typeof t.roles] ?? member.role}</span>
                  </span>
                  <span className="muted">{member.asleep ? t.asleep : member.present ? t.home : t.away}</span>
                </li>
              ))}
          </ul>
        ) : null}
      </section>
      <Tokens />
    </>
  );
}
