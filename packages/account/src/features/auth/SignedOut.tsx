import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { Link } from 'wouter';
import { useAccount } from '../../app/account';
import { strings } from '../../app/strings';

/** What a person who is not signed in sees on a page that needs them to be. */
export function SignedOut() {
  const { signIn } = useAccount();
  return (
    <section className="card card--centred">
      <h1 tabIndex={-1}>{strings.signedOut.title}</h1>
      <p>{strings.signedOut.intro}</p>
      <div className="actions actions--stacked">
        <button type="button" className="button button--primary" onClick={() => signIn()}>
          {strings.common.signIn}
        </button>
        <Link href={ACCOUNT_PAGES.signUp} className="button">
          {strings.common.createAccount}
        </Link>
      </div>
      <p>
        <a href="/cloud/password-forgotten">{strings.signedOut.forgot}</a>
      </p>
    </section>
  );
}
