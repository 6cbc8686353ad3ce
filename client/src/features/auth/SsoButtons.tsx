import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { configAtom } from '../../api/config';
import { currentReturnPath, startSso } from './ssoApi';

/**
 * "Sign in with <university>" for each configured university sign-in, on
 * the login and sign-up screens. A click asks the server to start and goes
 * to the identity provider; it comes back to /sso/callback and then to
 * returnTo (by default the address this screen was opened at).
 */
export function SsoButtons({ returnTo }: { returnTo?: string }) {
  const { sso } = useAtomValue(configAtom);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (sso.length === 0) return null;
  const go = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      window.location.assign(await startSso(id, returnTo ?? currentReturnPath()));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Sign-in could not start. Please try again.');
      setBusy(null);
    }
  };
  return (
    <div className="sso-buttons">
      {sso.map((p) => (
        <button key={p.id} type="button" className="button button--secondary button--block" disabled={busy !== null} onClick={() => void go(p.id)}>
          {busy === p.id ? 'Redirecting…' : `Sign in with ${p.name}`}
        </button>
      ))}
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
