import type { CloudAPI } from '@hearth/client/browser';
import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { followAccountLanguage, type Language, LanguageProvider, LanguageSwitcher, useLanguage } from '@hearth/i18n';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { Loading, Notice } from '../components/forms';
import { SignedOut } from '../features/auth/SignedOut';
import { completeSignIn, isTokenStorageEvent, startSignIn } from '../features/auth/session';
import { DeleteAccountPage } from '../features/delete/DeleteAccountPage';
import { DevicesPage } from '../features/devices/DevicesPage';
import { ClaimHubPage } from '../features/hubs/ClaimHubPage';
import { HubPage } from '../features/hubs/HubPage';
import { HubsPage } from '../features/hubs/HubsPage';
import { InvitePage } from '../features/hubs/InvitePage';
import { OpenHubPage } from '../features/hubs/OpenHubPage';
import { PrivacyPage } from '../features/legal/PrivacyPage';
import { TermsPage } from '../features/legal/TermsPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { SecurityPage } from '../features/security/SecurityPage';
import { SignUpPage } from '../features/signup/SignUpPage';
import { VerifyBanner } from '../features/signup/VerifyBanner';
import { VerifyEmailPage } from '../features/signup/VerifyEmailPage';
import { type Account, AccountContext, type User } from './account';
import { i18n, strings } from './strings';

const NAV = [
  { href: ACCOUNT_PAGES.profile, label: () => strings.shell.profile },
  { href: ACCOUNT_PAGES.security, label: () => strings.shell.security },
  { href: ACCOUNT_PAGES.hubs, label: () => strings.shell.hubs },
  { href: ACCOUNT_PAGES.devices, label: () => strings.shell.devices },
] as const;

/** A language chosen here while signed in is the account's language from now on, in every browser it signs in from. */
async function saveLanguage(account: Account, language: Language) {
  if (!account.user || account.user.language === language) return;
  try {
    await account.cloud.services.cloud.updateUser({ id: account.user._id, user: { language } });
    await account.reloadUser();
  } catch (error) {
    // The pages speak it already; the account keeps its former language until the next choice.
    console.warn('The language was not saved to the account', error);
  }
}

function Shell({ account, children }: { account: Account; children: ReactNode }) {
  const [location] = useLocation();
  const current = (href: string) => (href === '/' ? location === '/' : location.startsWith(href));
  return (
    <>
      <a className="skip" href="#content">
        {strings.shell.skip}
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          {strings.shell.brand}
        </Link>
        {account.user ? (
          <button type="button" className="button button--quiet" onClick={() => void account.signOut()}>
            {strings.shell.signOut}
          </button>
        ) : null}
      </header>
      {account.user ? (
        <nav className="nav" aria-label={strings.shell.nav}>
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label()}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <main id="content" tabIndex={-1}>
        {account.user && !account.user.emailVerified ? <VerifyBanner /> : null}
        {children}
      </main>
      <footer className="footer">
        <a href="/support/">{strings.shell.support}</a>
        <a href="/api/helpdesk/articles">{strings.shell.help}</a>
        <Link href={ACCOUNT_PAGES.terms}>{strings.shell.terms}</Link>
        <Link href={ACCOUNT_PAGES.privacy}>{strings.shell.privacy}</Link>
        <LanguageSwitcher
          label={strings.shell.language}
          className="field footer__language"
          onChosen={(language) => void saveLanguage(account, language)}
        />
      </footer>
    </>
  );
}

/** Pages that need a signed-in person show the way to sign in instead when nobody is. */
function Private({ account, children }: { account: Account; children: ReactNode }) {
  return account.user ? children : <SignedOut />;
}

/** The account pages in the language detected, chosen or kept by the account: all of it renders again when it changes. */
export function App({ cloud }: { cloud: CloudAPI }) {
  return (
    <LanguageProvider i18n={i18n}>
      <AccountPages cloud={cloud} />
    </LanguageProvider>
  );
}

/** The sign-in, the signed-in user, and the pages by address (no reload between them). */
function AccountPages({ cloud }: { cloud: CloudAPI }) {
  useLanguage();
  const [status, setStatus] = useState<'loading' | 'ready'>('loading');
  const [user, setUser] = useState<User | null>(null);
  const [farewell, setFarewell] = useState<{ title: string; message: string; at: string } | null>(null);
  const [location, navigate] = useLocation();

  const loadUser = useCallback(async () => {
    if (!(await cloud.isLoggedIn())) {
      setUser(null);
      return;
    }
    try {
      const signedIn = (await cloud.getAuthenticatedUser()).data as unknown as User;
      // The account's language, unless this browser chose one (a choice here is also saved to the account).
      await followAccountLanguage(i18n, signedIn.language);
      setUser(signedIn);
    } catch (error) {
      console.warn('Not signed in', error);
      await cloud.logout();
      setUser(null);
    }
  }, [cloud]);

  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        const returnTo = await completeSignIn(cloud);
        if (returnTo && current) navigate(returnTo, { replace: true });
      } catch (error) {
        console.warn('Sign-in did not complete', error);
      }
      await loadUser();
      if (current) setStatus('ready');
    })();
    const onStorage = (event: StorageEvent) => {
      if (isTokenStorageEvent(event)) void cloud.setToken(null).then(loadUser);
    };
    window.addEventListener('storage', onStorage);
    return () => {
      current = false;
      window.removeEventListener('storage', onStorage);
    };
  }, [cloud, loadUser, navigate]);

  // A new page starts at its top, with focus where a screen reader expects it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [location]);

  const account = useMemo<Account>(
    () => ({
      cloud,
      user,
      reloadUser: loadUser,
      signIn: (returnTo) => void startSignIn(cloud, returnTo ?? `${location}${window.location.hash}`),
      signOut: async (everywhere = false, removePasskeys = false) => {
        const body = everywhere && removePasskeys ? { everywhere, removePasskeys } : { everywhere };
        await cloud.services.cloud.signOut(body).catch((error: unknown) => console.warn('Sign-out', error));
        await cloud.logout();
        setUser(null);
        navigate('/');
      },
      forget: async (message) => {
        await cloud.logout();
        setFarewell({ ...message, at: location });
        setUser(null);
      },
    }),
    [cloud, user, loadUser, location, navigate],
  );

  if (status === 'loading') return <Loading />;
  return (
    <AccountContext.Provider value={account}>
      <Shell account={account}>
        {farewell && farewell.at === location ? (
          <section className="card">
            <h1 tabIndex={-1}>{farewell.title}</h1>
            <Notice kind="success">{farewell.message}</Notice>
            <Link href={ACCOUNT_PAGES.signUp} className="button">
              {strings.shell.createNew}
            </Link>
          </section>
        ) : (
          <Switch>
            <Route path={ACCOUNT_PAGES.signUp}>
              <SignUpPage />
            </Route>
            <Route path={ACCOUNT_PAGES.terms}>
              <TermsPage />
            </Route>
            <Route path={ACCOUNT_PAGES.privacy}>
              <PrivacyPage />
            </Route>
            <Route path={ACCOUNT_PAGES.verifyEmail}>
              <VerifyEmailPage />
            </Route>
            <Route path={ACCOUNT_PAGES.invite}>
              <InvitePage />
            </Route>
            <Route path={ACCOUNT_PAGES.security}>
              <Private account={account}>
                <SecurityPage />
              </Private>
            </Route>
            <Route path={ACCOUNT_PAGES.claimHub}>
              <Private account={account}>
                <ClaimHubPage />
              </Private>
            </Route>
            <Route path={ACCOUNT_PAGES.openHub}>
              {(params) => (
                <Private account={account}>
                  <OpenHubPage id={decodeURIComponent(params.id)} />
                </Private>
              )}
            </Route>
            <Route path={ACCOUNT_PAGES.hub}>
              {(params) => (
                <Private account={account}>
                  <HubPage id={params.id} />
                </Private>
              )}
            </Route>
            <Route path={ACCOUNT_PAGES.hubs}>
              <Private account={account}>
                <HubsPage />
              </Private>
            </Route>
            <Route path={ACCOUNT_PAGES.devices}>
              <Private account={account}>
                <DevicesPage />
              </Private>
            </Route>
            <Route path={ACCOUNT_PAGES.deleteAccount}>
              <Private account={account}>
                <DeleteAccountPage />
              </Private>
            </Route>
            <Route path={ACCOUNT_PAGES.profile}>
              <Private account={account}>
                <ProfilePage />
              </Private>
            </Route>
            <Route>
              <h1 tabIndex={-1}>{strings.shell.notFound}</h1>
              <p>
                <Link href="/">{strings.shell.toAccount}</Link>
              </p>
            </Route>
          </Switch>
        )}
      </Shell>
    </AccountContext.Provider>
  );
}
