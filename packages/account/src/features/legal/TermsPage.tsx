import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { strings } from '../../app/strings';

/** The terms a person accepts at sign-up: readable by anyone, signed in or not. */
export function TermsPage() {
  const t = strings.terms;
  return (
    <section className="card legal">
      <h1 tabIndex={-1}>{t.title}</h1>
      <p>{t.intro}</p>
      <h2>{t.account}</h2>
      <ul>
        <li>{t.accountName}</li>
        <li>{t.accountResponsible}</li>
        <li>
          {t.deleteBefore}
          <a href={ACCOUNT_PAGES.deleteAccount}>{t.deleteLink}</a>
          {t.deleteAfter}
        </li>
      </ul>
      <h2>{t.hubs}</h2>
      <ul>
        <li>{t.hubsOwn}</li>
        <li>{t.hubsInvite}</li>
        <li>{t.hubsApps}</li>
      </ul>
      <h2>{t.fair}</h2>
      <ul>
        <li>{t.fairReach}</li>
        <li>{t.fairLimit}</li>
      </ul>
      <h2>{t.purchases}</h2>
      <p>{t.purchasesText}</p>
      <h2>{t.changes}</h2>
      <p>{t.changesText}</p>
      <p>
        {t.privacyBefore}
        <a href={ACCOUNT_PAGES.privacy}>{t.privacyLink}</a>
        {t.privacyAfter}
      </p>
    </section>
  );
}
