import type { CloudAPI } from '@hearth/client/browser';
import { ACCOUNT_PAGES } from '@hearth/contract/provider';
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

const NAV = [
  { href: ACCOUNT_PAGES.profile, label: 'Profile' },
  { href: ACCOUNT_PAGES.security, label: 'Security' },
  { href: ACCOUNT_PAGES.hubs, label: 'Hubs' },
  { href: ACCOUNT_PAGES.devices, label: 'Devices & orders' },
] as const;

function Shell({ account, children }: { account: Account; children: ReactNode }) {
  const [location] = useLocation();
  const current = (href: string) => (href === '/' ? location === '/' : location.startsWith(href));
  return (
    <>
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          Hearth account
        </Link>
        {account.user ? (
          <button type="button" className="button button--quiet" onClick={() => void account.signOut()}>
            Sign out
          </button>
        ) : null}
      </header>
      {account.user ? (
        <nav className="nav" aria-label="Account">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label}
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
        <a href="/support/">Contact support</a>
        <a href="/api/helpdesk/articles">Help Center</a>
        <Link href={ACCOUNT_PAGES.terms}>Terms</Link>
        <Link href={ACCOUNT_PAGES.privacy}>Privacy</Link>
      </footer>
    </>
  );
}

/** Pages that need a signed-in person show the way to sign in instead when nobody is. */
function Private({ account, children }: { account: Account; children: ReactNode }) {
  return account.user ? children : <SignedOut />;
}

/** The account pages: the sign-in, the signed-in user, and the pages by address (no reload between them). */
export function App({ cloud }: { cloud: CloudAPI }) {
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
      setUser((await cloud.getAuthenticatedUser()).data as unknown as User);
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
              Create a new account
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
              <h1 tabIndex={-1}>Page not found</h1>
              <p>
                <Link href="/">Go to your account</Link>
              </p>
            </Route>
          </Switch>
        )}
      </Shell>
    </AccountContext.Provider>
  );
}
