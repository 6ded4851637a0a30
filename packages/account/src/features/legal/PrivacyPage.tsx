import { ACCOUNT_PAGES } from '@hearth/contract/provider';

/** What the cloud keeps about a person, and why: readable by anyone, signed in or not. */
export function PrivacyPage() {
  return (
    <section className="card legal">
      <h1 tabIndex={-1}>Privacy policy</h1>
      <p>Hearth keeps as little about you as it needs to give you the services you use, and nothing to sell.</p>
      <h2>What the cloud keeps</h2>
      <ul>
        <li>
          Your account: name, e-mail address, language, a hash of your password (never the password itself), and the two-step
          sign-in methods and passkeys you add.
        </li>
        <li>Which hubs you own or share, and their names and addresses, so you can reach them from anywhere.</li>
        <li>Backups of your hubs, when your subscription includes them.</li>
        <li>Your orders and subscriptions, with the billing and delivery addresses you gave.</li>
        <li>Support questions you send, and the answers.</li>
        <li>Records of sign-ins and requests (address, time, result), to keep your account safe.</li>
      </ul>
      <h2>What stays at home</h2>
      <p>
        Your devices, flows and their history live on your hub. When you use your hub from away, the cloud passes your requests to
        it and does not keep them.
      </p>
      <h2>Cookies</h2>
      <p>
        The sign-in pages set cookies only to sign you in: one that protects the sign-in form, one that keeps you signed in. There
        are no advertising or tracking cookies.
      </p>
      <h2>E-mail</h2>
      <p>
        We mail you about your account (verification, security changes, invitations, orders). Newsletters only when you ask for
        them.
      </p>
      <h2>Your choices</h2>
      <ul>
        <li>
          See and change your details on your <a href={ACCOUNT_PAGES.profile}>profile</a>.
        </li>
        <li>
          Delete your account, with what the cloud keeps about you, on the{' '}
          <a href={ACCOUNT_PAGES.deleteAccount}>delete account</a> page.
        </li>
      </ul>
      <p>
        The rules of using Hearth are in the <a href={ACCOUNT_PAGES.terms}>terms of service</a>.
      </p>
    </section>
  );
}
