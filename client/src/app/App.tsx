import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { SignInPage } from '../features/auth';
import { ThemeControl, useApplyTheme } from '../features/theme';
import { loadConfigAtom, productNameAtom, supportEmailAtom } from './config';
import './App.css';

/** The application shell. Signed-out for now: the placeholder sign-in page. */
export function App() {
  useApplyTheme();
  const loadConfig = useSetAtom(loadConfigAtom);
  const productName = useAtomValue(productNameAtom);
  const supportEmail = useAtomValue(supportEmailAtom);

  useEffect(() => {
    void loadConfig();
  }, [loadConfig]);

  useEffect(() => {
    document.title = productName;
  }, [productName]);

  return (
    <div className="app-shell">
      <main className="app-shell__main">
        <SignInPage />
      </main>
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
