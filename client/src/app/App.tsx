import { useAtomValue, useSetAtom, type createStore } from 'jotai';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { sessionAtom, signInAtom } from '../features/auth/authAtoms';
import { SSO_CALLBACK_PATH, type SsoSignIn } from '../features/auth/ssoApi';
import { onboardingAtom, startOnboardingAtom } from '../features/onboarding/onboardingAtoms';
import { ThemeControl, useApplyTheme } from '../features/theme';
import { ChunkBoundary } from '../ui/ChunkBoundary';
import { CrashBoundary } from '../ui/CrashBoundary';
import { Toaster } from '../ui/Toaster';
import { unreadCountAtom } from '../features/notifications/notificationsAtoms';
import { unreadMessagesAtom } from '../features/messages/unread';
import { loadConfigAtom, productNameAtom, supportEmailAtom } from '../api/config';
import { Connectivity } from './Connectivity';
import { lazyScreen } from '../ui/lazyScreen';
import { afterPaint } from '../lib/afterPaint';
import './App.css';

// A signed-in visitor never downloads the sign-up screens, and a signed-out
// one never downloads the app: each of the three is its own chunk.
const authFlow = lazyScreen(() => import('../features/auth/AuthFlow').then((m) => m.AuthFlow));
const onboardingScreen = lazyScreen(() => import('../features/onboarding/Onboarding').then((m) => m.Onboarding));
const shell = lazyScreen(() => import('./Shell').then((m) => m.Shell));
const ssoCallback = lazyScreen(() => import('../features/auth/SsoCallbackPage').then((m) => m.SsoCallbackPage));
const SsoCallbackPage = ssoCallback.Component;
const AuthFlow = authFlow.Component;
const Onboarding = onboardingScreen.Component;
const Shell = shell.Component;

/**
 * Loads the chunk of the screen App will show first (main.tsx renders once
 * it is in, so that screen renders without a Suspense fallback: see
 * lazyScreen), and for the shell the data of its first render.
 */
export function preloadFirstScreen(store: ReturnType<typeof createStore>): Promise<void> {
  // Back from a university sign-in: its page, never a flash of the login page.
  if (window.location.pathname === SSO_CALLBACK_PATH) return ssoCallback.preload();
  if (!store.get(sessionAtom)) return authFlow.preload();
  if (store.get(onboardingAtom)) return onboardingScreen.preload();
  // And what its first render shows (the feed's first page).
  return Promise.all([shell.preload(), import('./Shell').then((m) => m.prepareShell(store))]).then(() => undefined);
}

/** Signed-out and onboarding screens: a centred card, theme and support in the footer. */
function CardLayout({ children }: { children: React.ReactNode }) {
  const supportEmail = useAtomValue(supportEmailAtom);
  return (
    <div className="app-shell">
      <main className="app-shell__main">{children}</main>
      <footer className="app-shell__footer">
        <ThemeControl />
        {supportEmail !== '' && (
          <a className="app-shell__support" href={`mailto:${supportEmail}`}>
            Help &amp; support
          </a>
        )}
      </footer>
    </div>
  );
}

/** The tab title: the product, led by the unread count when there is one. */
export function unreadTitle(productName: string, unread: number): string {
  return unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${productName}` : productName;
}

/**
 * The application: the signed-out flow, onboarding after verification, or
 * the signed-in shell (docs/product.md §2.2: only a signed-in user sees the full app).
 */
export function App() {
  useApplyTheme();
  const loadConfig = useSetAtom(loadConfigAtom);
  const productName = useAtomValue(productNameAtom);
  const session = useAtomValue(sessionAtom);
  const onboarding = useAtomValue(onboardingAtom);
  const startOnboarding = useSetAtom(startOnboardingAtom);
  const signIn = useSetAtom(signInAtom);
  const [ssoReturn, setSsoReturn] = useState(() => window.location.pathname === SSO_CALLBACK_PATH);
  const leaveSso = useCallback((to: string) => {
    window.history.replaceState(null, '', to);
    setSsoReturn(false);
  }, []);
  const ssoSignedIn = useCallback(
    (s: SsoSignIn) => {
      // The address moves first, so the shell starts on the return path.
      window.history.replaceState(null, '', s.returnTo);
      signIn({ token: s.token, user: s.user });
      // A first sign-in made the account: onboarding, as after a sign-up's code.
      if (s.newAccount) startOnboarding();
      setSsoReturn(false);
    },
    [signIn, startOnboarding],
  );

  useEffect(() => afterPaint(() => void loadConfig()), [loadConfig]);

  // The unread count in the tab title (issue 16 #5), as "(3) Campus": notifications and messages (issue 29).
  const unread = useAtomValue(unreadCountAtom) + useAtomValue(unreadMessagesAtom);
  const title = unreadTitle(productName, session ? unread : 0);
  useEffect(() => {
    document.title = title;
  }, [title]);

  let content: React.ReactNode;
  const shown = ssoReturn ? 'sso' : !session ? 'auth' : onboarding ? 'onboarding' : 'shell';
  if (ssoReturn) {
    content = (
      <CardLayout>
        <SsoCallbackPage onSignedIn={ssoSignedIn} onBack={() => leaveSso(session ? '/settings' : '/login')} />
      </CardLayout>
    );
  } else if (!session) {
    content = (
      <CardLayout>
        {/* A verified new account goes through onboarding (auth sits below onboarding: the app links them). */}
        <AuthFlow onVerified={startOnboarding} />
      </CardLayout>
    );
  } else if (onboarding) {
    content = (
      <CardLayout>
        <Onboarding />
      </CardLayout>
    );
  } else {
    content = <Shell />;
  }

  return (
    <>
      {/* A screen whose chunk does not load says so here (the shell's pages have their own, in the page area). */}
      {/* A bug while rendering shows an alert, never a blank page. */}
      <CrashBoundary resetKey={shown} className="chunk-error--screen">
        <ChunkBoundary resetKey={shown} className="chunk-error--screen">
          <Suspense fallback={<div className="app-loading" role="status" aria-label="Loading" />}>{content}</Suspense>
        </ChunkBoundary>
      </CrashBoundary>
      <Toaster />
      <Connectivity />
    </>
  );
}
