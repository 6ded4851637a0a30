import type { CoreHubAPI } from '@hearth/client/browser';
import { HOME_PAGES } from '@hearth/contract/provider';
import { LanguageProvider, LanguageSwitcher, useLanguage } from '@hearth/i18n';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { Notices, useNotify } from '../components/Notices';
import { Failed, Loading } from '../components/Status';
import { AppSettingsPage } from '../features/apps/AppSettingsPage';
import { AppsPage } from '../features/apps/AppsPage';
import { ClaimOrSignIn } from '../features/claim/ClaimPage';
import { DevicePage } from '../features/devices/DevicePage';
import { HomePage } from '../features/devices/HomePage';
import { FlowEditorRoute } from '../features/flows/FlowEditorRoute';
import { FlowPage } from '../features/flows/FlowPage';
import { FlowsPage } from '../features/flows/FlowsPage';
import { InsightsPage } from '../features/insights/InsightsPage';
import { AddDevicePage } from '../features/pairing/AddDevicePage';
import { PeoplePage } from '../features/people/PeoplePage';
import { SignInPage } from '../features/signin/SignInPage';
import { VariablesPage } from '../features/variables/VariablesPage';
import { forgetHubs } from '../lib/account-hubs';
import { openHub, storedToken, storeToken, TOKEN_KEY } from '../lib/connection';
import { isSignedOut } from '../lib/errors';
import { HubContext, type HubState, useOnline } from '../lib/hub';
import { HubSwitcher } from './HubSwitcher';
import { Navigation } from './Navigation';
import { AlarmsPage, EnergyPage, MoodsPage, MqttBridgePage, NotificationsPage, SystemPage, ZonesPage } from './pages';
import { i18n, strings } from './strings';

function Shell({ hub, children }: { hub: HubState | null; children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#content">
        {strings.skip}
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          {strings.appName}
        </Link>
        {hub ? <HubSwitcher hub={hub.hub} /> : null}
        {hub ? (
          <button type="button" className="button button--quiet" onClick={hub.signOut}>
            {strings.signIn.signOut}
          </button>
        ) : null}
      </header>
      {hub ? <ConnectionBanner hub={hub.hub} /> : null}
      {hub ? <Navigation /> : null}
      <main id="content" tabIndex={-1}>
        {children}
      </main>
      <footer className="app-footer">
        <LanguageSwitcher label={strings.appLanguage} className="field" />
      </footer>
    </>
  );
}

/** Says when the realtime connection is lost (the tiles may be stale) and when it is back (they were refetched). */
function ConnectionBanner({ hub }: { hub: CoreHubAPI }) {
  const online = useOnline(hub);
  const notify = useNotify();
  const [wasOffline, setWasOffline] = useState(false);
  useEffect(() => {
    if (online === false) setWasOffline(true);
    if (online && wasOffline) {
      setWasOffline(false);
      notify('info', strings.connection.back);
    }
  }, [online, wasOffline, notify]);
  return online === false ? (
    <p className="banner" role="alert">
      {strings.connection.lost}
    </p>
  ) : null;
}

type Status =
  | { state: 'loading' }
  | { state: 'signed-out' }
  | { state: 'unreachable'; error: unknown }
  | { state: 'ready'; hub: CoreHubAPI };

/** The household web app in the language detected or chosen: it renders again, whole, when the language changes. */
export function App() {
  return (
    <LanguageProvider i18n={i18n}>
      <HomeApp />
    </LanguageProvider>
  );
}

/** Sign-in to the hub that served the app, then the home and its pages by address. */
function HomeApp() {
  useLanguage();
  const [status, setStatus] = useState<Status>({ state: 'loading' });
  const [location, navigate] = useLocation();

  const open = useCallback(async () => {
    const token = storedToken();
    if (!token) return setStatus({ state: 'signed-out' });
    setStatus({ state: 'loading' });
    try {
      const hub = await openHub(window.location.origin, token);
      setStatus({ state: 'ready', hub });
    } catch (error) {
      if (isSignedOut(error)) {
        storeToken(null);
        setStatus({ state: 'signed-out' });
      } else setStatus({ state: 'unreachable', error });
    }
  }, []);

  useEffect(() => {
    void open();
    // Another tab signed in or out.
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKEN_KEY || event.key === null) void open();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [open]);

  const hub = status.state === 'ready' ? status.hub : null;
  useEffect(() => () => hub?.destroy(), [hub]);

  // A new page starts at its top, with focus where a screen reader expects it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [location]);

  const state = useMemo<HubState | null>(
    () =>
      hub
        ? {
            hub,
            signOut: () => {
              storeToken(null);
              forgetHubs();
              setStatus({ state: 'signed-out' });
              navigate(HOME_PAGES.home);
            },
          }
        : null,
    [hub, navigate],
  );

  let body: ReactNode;
  if (status.state === 'loading') body = <Loading />;
  else if (status.state === 'unreachable')
    body = <Failed error={status.error} title={strings.connection.unreachable} retry={() => void open()} />;
  else if (status.state === 'signed-out')
    body = (
      <ClaimOrSignIn
        signIn={
          <SignInPage
            onSignedIn={(token) => {
              storeToken(token);
              if (location === HOME_PAGES.signIn) navigate(HOME_PAGES.home, { replace: true });
              void open();
            }}
          />
        }
      />
    );
  else
    body = (
      <Switch>
        {/* Already signed in (opened again from the account pages): the home. */}
        <Route path={HOME_PAGES.signIn}>
          <Redirect to={HOME_PAGES.home} replace />
        </Route>
        <Route path={HOME_PAGES.addDevice}>
          <AddDevicePage />
        </Route>
        <Route path={HOME_PAGES.zones}>
          <ZonesPage />
        </Route>
        <Route path={HOME_PAGES.device}>{(params) => <DevicePage id={decodeURIComponent(params.id)} />}</Route>
        <Route path={HOME_PAGES.flowNew}>
          <FlowEditorRoute />
        </Route>
        <Route path={HOME_PAGES.advancedFlowNew}>
          <FlowEditorRoute advanced />
        </Route>
        <Route path={HOME_PAGES.flowEdit}>{(params) => <FlowEditorRoute param={params.id} />}</Route>
        <Route path={HOME_PAGES.flow}>{(params) => <FlowPage param={params.id} />}</Route>
        <Route path={HOME_PAGES.flows}>
          <FlowsPage />
        </Route>
        <Route path={HOME_PAGES.variables}>
          <VariablesPage />
        </Route>
        <Route path={HOME_PAGES.insights}>
          <InsightsPage />
        </Route>
        <Route path={HOME_PAGES.apps}>
          <AppsPage />
        </Route>
        <Route path={HOME_PAGES.app}>{(params) => <AppSettingsPage id={decodeURIComponent(params.id)} />}</Route>
        <Route path={HOME_PAGES.people}>
          <PeoplePage />
        </Route>
        <Route path={HOME_PAGES.alarms}>
          <AlarmsPage />
        </Route>
        <Route path={HOME_PAGES.moods}>
          <MoodsPage />
        </Route>
        <Route path={HOME_PAGES.notifications}>
          <NotificationsPage />
        </Route>
        <Route path={HOME_PAGES.energy}>
          <EnergyPage />
        </Route>
        <Route path={HOME_PAGES.mqtt}>
          <MqttBridgePage />
        </Route>
        <Route path={HOME_PAGES.system}>
          <SystemPage />
        </Route>
        <Route path={HOME_PAGES.home}>
          <HomePage />
        </Route>
        <Route>
          <h1 tabIndex={-1}>{strings.errors.notFound}</h1>
          <p>
            <Link href="/">{strings.errors.goHome}</Link>
          </p>
        </Route>
      </Switch>
    );

  return (
    <Notices>
      <HubContext.Provider value={state}>
        <Shell hub={state}>{body}</Shell>
      </HubContext.Provider>
    </Notices>
  );
}
