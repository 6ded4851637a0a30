import { LanguageProvider, LanguageSwitcher, useLanguage } from '@hearth/i18n';
import { useCallback, useEffect, useState } from 'react';
import { TopBar } from '../components/BrandMark';
import { i18n, texts } from '../config/texts';
import { LoginScreen } from '../features/auth/components/LoginScreen';
import { SupportForm } from '../features/form/components/SupportForm';
import { clearDraft } from '../features/ticket/hooks/draft';
import type { Order, User } from '../types/entities';
import { type Services, ServicesContext } from './services';

type Screen = { kind: 'loading' } | { kind: 'login' } | { kind: 'form'; user: User; orders: Order[] | null };

/** Loading until the cloud answers, then the login screen or the form. */
function Root({ services, knowledgeBaseUrl }: { services: Services; knowledgeBaseUrl: string }) {
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' });
  // Incremented to throw the whole form away (sign-out, back-forward cache restore).
  const [generation, setGeneration] = useState(0);

  const load = useCallback(async () => {
    setScreen({ kind: 'loading' });
    try {
      if (!(await services.init())) {
        setScreen({ kind: 'login' });
        return;
      }
      const orders = services.getOrders().catch((error) => {
        console.warn('Could not load orders', error);
        return null;
      });
      const [user, orderList] = await Promise.all([services.getUser(), orders]);
      setScreen({ kind: 'form', user, orders: orderList });
    } catch (error) {
      console.warn('Not signed in', error);
      services.signOut();
      setScreen({ kind: 'login' });
    }
  }, [services]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) {
        setGeneration((g) => g + 1);
        void load();
      }
    };
    window.addEventListener('pageshow', onPageShow);
    const unsubscribe = services.onAuthChange((signedIn) => {
      setGeneration((g) => g + 1);
      if (signedIn) void load();
      else setScreen({ kind: 'login' });
    });
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      unsubscribe();
    };
  }, [load, services]);

  const [signingOut, setSigningOut] = useState(false);
  /** Ends the session on the server too, then forgets it here; the form and the draft go with it. */
  const signOut = async () => {
    setSigningOut(true);
    try {
      await services.signOut();
    } finally {
      setSigningOut(false);
      clearDraft();
      setGeneration((g) => g + 1);
      setScreen({ kind: 'login' });
    }
  };

  if (screen.kind === 'loading')
    return (
      <>
        <TopBar />
        <main id="content" tabIndex={-1} className="loading" aria-busy="true">
          <p role="status">{texts.loading}</p>
        </main>
      </>
    );
  if (screen.kind === 'login')
    return (
      <>
        <TopBar />
        <LoginScreen onSignIn={services.signIn} cantSignInUrl={services.cantSignInUrl} />
      </>
    );
  return (
    <>
      <TopBar>
        <a className="button button--small" href="/">
          {texts.form.yourAccount}
        </a>
        <button type="button" className="button button--small" onClick={() => void signOut()} disabled={signingOut}>
          {texts.form.signOut}
        </button>
      </TopBar>
      <SupportForm key={generation} user={screen.user} orders={screen.orders} knowledgeBaseUrl={knowledgeBaseUrl} />
    </>
  );
}

/** The form in the language detected or chosen, with the switcher below every screen; all of it renders again on a change. */
function Localized({ services, knowledgeBaseUrl }: { services: Services; knowledgeBaseUrl: string }) {
  useLanguage();
  return (
    <>
      <Root services={services} knowledgeBaseUrl={knowledgeBaseUrl} />
      <footer className="form-footer">
        <LanguageSwitcher label={texts.form.language} className="field language-field" />
      </footer>
    </>
  );
}

export function App({ services, knowledgeBaseUrl }: { services: Services; knowledgeBaseUrl: string }) {
  return (
    <LanguageProvider i18n={i18n}>
      <ServicesContext.Provider value={services}>
        <Localized services={services} knowledgeBaseUrl={knowledgeBaseUrl} />
      </ServicesContext.Provider>
    </LanguageProvider>
  );
}
