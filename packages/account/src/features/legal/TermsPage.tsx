import { ACCOUNT_PAGES } from '@hearth/contract/provider';

/** The terms a person accepts at sign-up: readable by anyone, signed in or not. */
export function TermsPage() {
  return (
    <section className="card legal">
      <h1 tabIndex={-1}>Terms of service</h1>
      <p>These terms apply to your Hearth account and to the Hearth cloud services you use with it.</p>
      <h2>Your account</h2>
      <ul>
        <li>You give a name and an e-mail address that is yours, and you keep your password to yourself.</li>
        <li>You are responsible for what happens with your account and on the hubs you own or share.</li>
        <li>
          You can delete your account at any time on the <a href={ACCOUNT_PAGES.deleteAccount}>delete account</a> page.
        </li>
      </ul>
      <h2>Your hubs and your home</h2>
      <ul>
        <li>Your hub runs your home on its own. The cloud adds remote access, backups, sharing and the app store.</li>
        <li>Only the people you invite to a hub can use it, with the role you give them.</li>
        <li>Apps you install run on your hub with the permissions they ask for when you install them.</li>
      </ul>
      <h2>Fair use</h2>
      <ul>
        <li>Do not try to reach accounts, hubs or data that are not yours, or to overload the services.</li>
        <li>The services limit how fast they are called so that they stay available to everyone.</li>
      </ul>
      <h2>Purchases</h2>
      <p>
        Orders and subscriptions from the Hearth store show their price, VAT and renewal before you pay. A subscription renews
        until you cancel it on the Devices &amp; orders page.
      </p>
      <h2>Changes</h2>
      <p>When these terms change in a way that matters to you, we tell you by e-mail before the change takes effect.</p>
      <p>
        How we handle your data is in the <a href={ACCOUNT_PAGES.privacy}>privacy policy</a>.
      </p>
    </section>
  );
}
