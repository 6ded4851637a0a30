import { type FormEvent, useEffect, useRef, useState } from 'react';
import { strings } from '../../app/strings';
import { linkedCloud } from '../../lib/cloud';
import { openHub, signInLocal } from '../../lib/connection';
import { isSignedOut, messageOf } from '../../lib/errors';
import { cloudReturn, completeCloudSignIn, signInWithCloudAsked, startCloudSignIn } from './cloud';

const t = strings.signIn;

/**
 * Signs in to the hub that served the app: through the cloud's account when the hub is linked to one, with the
 * hub's local credentials (no cloud needed), or with a personal access token. Answers the token to keep through
 * `onSignedIn`.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const [mode, setMode] = useState<'password' | 'token'>('password');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cloud, setCloud] = useState<string | null>(null);
  const [returning, setReturning] = useState(() => cloudReturn() === 'code' || signInWithCloudAsked());
  // The parent passes a new function each render; the return is completed once.
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  // Back from the cloud's sign-in page: finish there; else offer it when the hub has a cloud.
  useEffect(() => {
    let alive = true;
    (async () => {
      const url = await linkedCloud().catch(() => null);
      if (!alive) return;
      setCloud(url);
      // Opened from the account pages: straight on to the cloud, whose sign-in the person already holds.
      if (url && cloudReturn() === null && signInWithCloudAsked()) {
        await startCloudSignIn(url).catch((failure: unknown) => {
          if (!alive) return;
          setError(t.cloudFailed(messageOf(failure)));
          setReturning(false);
        });
        return;
      }
      if (cloudReturn() === null) setReturning(false);
      if (!url || cloudReturn() === null) return;
      try {
        const token = await completeCloudSignIn(url);
        if (alive && token) signedIn.current(token);
      } catch (failure) {
        if (alive) setError(t.cloudFailed(messageOf(failure)));
      }
      if (alive) setReturning(false);
    })();
    return () => {
      alive = false;
    };
  }, []);

  async function signInThroughCloud(url: string) {
    setBusy(true);
    setError(null);
    try {
      await startCloudSignIn(url);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  if (returning)
    return (
      <section className="card narrow">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p role="status">{t.cloudCompleting}</p>
      </section>
    );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const origin = window.location.origin;
      if (mode === 'password') {
        onSignedIn(await signInLocal(origin, String(form.get('username')), String(form.get('password'))));
      } else {
        const token = String(form.get('token')).trim();
        const hub = await openHub(origin, token);
        hub.destroy();
        onSignedIn(token);
      }
    } catch (failure) {
      const refused = isSignedOut(failure) || (failure as { code?: string }).code === 'invalid_credentials';
      setError(refused ? (mode === 'password' ? t.failed : t.tokenFailed) : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card narrow">
      <h1 tabIndex={-1}>{t.title}</h1>
      <p className="muted">{t.intro}</p>
      {cloud ? (
        <>
          <button type="button" className="button" disabled={busy} onClick={() => void signInThroughCloud(cloud)}>
            {t.withCloud}
          </button>
          <p className="divider">{t.or}</p>
        </>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate={false}>
        {mode === 'password' ? (
          <>
            <label className="field">
              <span>{t.username}</span>
              <input name="username" autoComplete="username" required autoCapitalize="none" />
            </label>
            <label className="field">
              <span>{t.password}</span>
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
          </>
        ) : (
          <label className="field">
            <span>{t.token}</span>
            <input name="token" autoComplete="off" required spellCheck={false} aria-describedby="token-hint" />
            <small id="token-hint" className="muted">
              {t.tokenHint}
            </small>
          </label>
        )}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={busy}>
          {t.submit}
        </button>
      </form>
      <button
        type="button"
        className="button button--quiet"
        onClick={() => {
          setError(null);
          setMode(mode === 'password' ? 'token' : 'password');
        }}
      >
        {mode === 'password' ? t.withToken : t.withPassword}
      </button>
    </section>
  );
}
