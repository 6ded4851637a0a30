import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { Link } from 'wouter';
import { useAccount } from '../../app/account';

/** What a person who is not signed in sees on a page that needs them to be. */
export function SignedOut() {
  const { signIn } = useAccount();
  return (
    <section className="card card--centred">
      <h1 tabIndex={-1}>Your Hearth account</h1>
      <p>Sign in to manage your profile, security, hubs and household.</p>
      <div className="actions actions--stacked">
        <button type="button" className="button button--primary" onClick={() => signIn()}>
          Sign in
        </button>
        <Link href={ACCOUNT_PAGES.signUp} className="button">
          Create account
        </Link>
      </div>
      <p>
        <a href="/cloud/password-forgotten">Forgot your password?</a>
      </p>
    </section>
  );
}
