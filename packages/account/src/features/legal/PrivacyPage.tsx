import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { strings } from '../../app/strings';

/** What the cloud keeps about a person, and why: readable by anyone, signed in or not. */
export function PrivacyPage() {
  const t = strings.privacy;
  return (
    <section className="card legal">
      <h1 tabIndex={-1}>{t.title}</h1>
      <p>{t.intro}</p>
      <h2>{t.kept}</h2>
      <ul>
        <li>{t.keptAccount}</li>
        <li>{t.keptHubs}</li>
        <li>{t.keptBackups}</li>
        <li>{t.keptOrders}</li>
        <li>{t.keptSupport}</li>
        <li>{t.keptRecords}</li>
      </ul>
      <h2>{t.home}</h2>
      <p>{t.homeText}</p>
      <h2>{t.cookies}</h2>
      <p>{t.cookiesText}</p>
      <h2>{t.mail}</h2>
      <p>{t.mailText}</p>
      <h2>{t.choices}</h2>
      <ul>
        <li>
          {t.seeBefore}
          <a href={ACCOUNT_PAGES.profile}>{t.seeLink}</a>
          {t.seeAfter}
        </li>
        <li>
          {t.deleteBefore}
          <a href={ACCOUNT_PAGES.deleteAccount}>{t.deleteLink}</a>
          {t.deleteAfter}
        </li>
      </ul>
      <p>
        {t.termsBefore}
        <a href={ACCOUNT_PAGES.terms}>{t.termsLink}</a>
        {t.termsAfter}
      </p>
    </section>
  );
}
