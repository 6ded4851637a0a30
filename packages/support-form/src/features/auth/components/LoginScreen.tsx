import { texts } from '../../../config/texts';

/** Signed out: the only screen a visitor sees. */
export function LoginScreen({ onSignIn, cantSignInUrl }: { onSignIn: () => void; cantSignInUrl: string }) {
  return (
    <main id="content" tabIndex={-1} className="login">
      <div className="login__card">
        <h1>{texts.loginTitle}</h1>
        <p>{texts.loginText}</p>
        <button type="button" className="button button--primary" onClick={onSignIn}>
          {texts.signIn}
        </button>
        <p>
          <a href="/signup">{texts.form.createAccount}</a>
        </p>
        <p>
          <a href={cantSignInUrl} target="_blank" rel="noopener noreferrer">
            {texts.cantSignIn}
          </a>
        </p>
      </div>
    </main>
  );
}
