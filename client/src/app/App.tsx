import { useAtomValue, useSetAtom } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { sessionAtom } from '../features/auth/authAtoms';
import { onboardingAtom } from '../features/onboarding/onboardingAtoms';
import { ThemeControl, useApplyTheme } from '../features/theme';
import { Toaster } from '../ui/Toaster';
import { unreadCountAtom } from '../features/notifications/notificationsAtoms';
import { loadConfigAtom, productNameAtom, supportEmailAtom } from './config';
import { Connectivity } from './Connectivity';
import './App.css';

// A signed-in visitor never downloads the sign-up screens, and a signed-out
// one never downloads the app: each of the three is its own chunk.
const AuthFlow = lazy(() => import('../features/auth/AuthFlow').then((m) => ({ default: m.AuthFlow })));
const Onboarding = lazy(() => import('../features/onboarding/Onboarding').then((m) => ({ default: m.Onboarding })));
const Shell = lazy(() => import('./Shell').then((m) => ({ default: m.Shell })));

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
 * the signed-in shell (spec §2.2: only a signed-in user sees the full app).
 */
export function App() {
  useApplyTheme();
  const loadConfig = useSetAtom(loadConfigAtom);
  const productName = useAtomValue(productNameAtom);
  const session = useAtomValue(sessionAtom);
  const onboarding = useAtomValue(onboardingAtom);

  useEffect(() => {
    void loadConfig();
  }, [loadConfig]);

  // The unread count in the tab title (issue 16 #5), as "(3) Campus".
  const unread = useAtomValue(unreadCountAtom);
  const title = unreadTitle(productName, session ? unread : 0);
  useEffect(() => {
    document.title = title;
  }, [title]);

  let content: React.ReactNode;
  if (!session) {
    content = (
      <CardLayout>
        <AuthFlow />
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
      <Suspense fallback={<div className="app-loading" role="status" aria-label="Loading" />}>{content}</Suspense>
      <Toaster />
      <Connectivity />
    </>
  );
}
