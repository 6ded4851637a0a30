import { type FormEvent, useState } from 'react';
import { format, strings } from '../../app/strings';
import { FieldError } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import { ScopePicker } from './ScopePicker';

const t = strings.people;

interface Token {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  lastUsed: string | null;
}

/** What a new token may do: only reading, everything this session may, or the scopes chosen in the picker. */
const READ_ONLY = ['homey.device.readonly', 'homey.zone.readonly', 'homey.flow.readonly', 'homey.insights.readonly'];

function chosenScopes(form: FormData, held: string[] | null): string[] {
  const access = form.get('access');
  if (access === 'read') return READ_ONLY;
  if (access === 'all') return held ?? ['homey'];
  return form.getAll('scope').map(String);
}

/** The caller's personal access tokens: names, scopes and dates (never their values), create one, revoke one. */
export function Tokens() {
  const { hub } = useHub();
  const notify = useNotify();
  const [generation, setGeneration] = useState(0);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [access, setAccess] = useState('read');
  const [scopeError, setScopeError] = useState<string | undefined>();
  const held = hub.session?.intersectedScopes ?? null;
  const tokens = useAsync(async () => (await hub.users.getPersonalAccessTokens()) as unknown as Token[], [hub, generation]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name')).trim();
    const scopes = chosenScopes(form, held);
    // A token with no scope could do nothing: say so on the picker instead of making one.
    setScopeError(scopes.length === 0 ? t.chooseScope : undefined);
    if (scopes.length === 0) return;
    try {
      const answer = (await hub.users.createPersonalAccessToken({ name, scopes })) as unknown as { token: string };
      setCreated({ name, token: answer.token });
      (event.target as HTMLFormElement).reset();
      setAccess('read');
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
                      {t.scopes(token.scopes)} · {t.created(format.date(token.createdAt))}
                      {token.lastUsed ? ` · ${t.lastUsed(format.dateTime(token.lastUsed))}` : ''}
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
        <div className="field">
          <label htmlFor="token-name">{t.tokenName}</label>
          <input id="token-name" name="name" required maxLength={255} />
        </div>
        <div className="field">
          <label htmlFor="token-access">{t.access}</label>
          <select id="token-access" name="access" value={access} onChange={(event) => setAccess(event.target.value)}>
            <option value="read">{t.readOnly}</option>
            <option value="all">{t.everything}</option>
            <option value="choose">{t.choose}</option>
          </select>
        </div>
        {access === 'choose' ? (
          <fieldset className="scopes" aria-describedby={scopeError ? 'scope-error' : undefined}>
            <legend>{t.scopesLegend}</legend>
            <ScopePicker held={held} />
            <FieldError id="scope" error={scopeError} />
          </fieldset>
        ) : null}
        <button type="submit" className="button">
          {t.create}
        </button>
      </form>
    </section>
  );
}
