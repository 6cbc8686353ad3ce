import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { configAtom, configStatusAtom } from '../../api/config';
import { AuthCard, PasswordField, TextField } from './AuthCard';
import {
  exchangeTicket,
  linkAccount,
  linkSendCode,
  parseSsoCallback,
  ssoErrorMessage,
  type SsoCallback,
  type SsoSignIn,
} from './ssoApi';

/**
 * The page the identity provider sends the browser back to. It shows
 * "Signing you in…" (never the login page) while the ticket is redeemed,
 * the reason when the sign-in was refused or cancelled, and the proof form
 * when the university account's address belongs to an existing account.
 */
export function SsoCallbackPage({ onSignedIn, onBack }: { onSignedIn: (s: SsoSignIn) => void; onBack: () => void }) {
  const { sso } = useAtomValue(configAtom);
  const configStatus = useAtomValue(configStatusAtom);
  const [cb] = useState<SsoCallback>(() => parseSsoCallback(window.location.hash));
  useEffect(() => {
    // The ticket leaves the address bar once the page is on screen (an
    // effect: a render React throws away must not lose it).
    if (window.location.hash !== '') window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  // The university whose sign-in this was (the fragment names the protocol).
  const named = cb.kind === 'ticket' ? undefined : sso.find((p) => p.id === cb.provider);
  const university = (named ?? (sso.length === 1 ? sso[0] : undefined))?.name ?? '';
  // Its name comes with the config: the message waits for it rather than
  // showing "your university" first.
  const configSettled = configStatus === 'ready' || configStatus === 'failed';

  useEffect(() => {
    if (cb.kind !== 'ticket' || started.current) return;
    started.current = true;
    exchangeTicket(cb.ticket).then(onSignedIn, (e: unknown) =>
      setError(e instanceof Error ? e.message : 'Sign-in did not work. Please try again.'),
    );
  }, [cb, onSignedIn]);

  if (cb.kind === 'error' || error) {
    return (
      <AuthCard title="Not signed in">
        <div className="sso-callback">
          {error || configSettled ? (
            <p className="alert alert--error" role="alert">
              {error ?? ssoErrorMessage(cb.kind === 'error' ? cb.code : '', university)}
            </p>
          ) : (
            <div className="app-loading" role="status" aria-label="Loading" />
          )}
          <button type="button" className="button button--primary button--block" onClick={onBack}>
            Back to sign in
          </button>
        </div>
      </AuthCard>
    );
  }
  if (cb.kind === 'link') return <LinkForm cb={cb} university={university} onSignedIn={onSignedIn} onBack={onBack} />;
  return (
    <AuthCard title="Signing you in…">
      <div className="app-loading" role="status" aria-label="Signing you in" />
    </AuthCard>
  );
}

function LinkForm({
  cb,
  university,
  onSignedIn,
  onBack,
}: {
  cb: Extract<SsoCallback, { kind: 'link' }>;
  university: string;
  onSignedIn: (s: SsoSignIn) => void;
  onBack: () => void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => onSignedIn(await linkAccount(cb.ticket, codeSent ? { otp: code } : { password })));
  };
  return (
    <AuthCard
      title="Link your university sign-in"
      subtitle={`An account with ${cb.email || 'this address'} already exists. Prove it is yours to sign in with ${university || 'your university'} from now on.`}
    >
      <div className="sso-callback">
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        {codeSent && (
          <p className="alert alert--success" role="status">
            {codeSent}
          </p>
        )}
        <form className="auth-form" onSubmit={submit} noValidate>
          {codeSent ? (
            <TextField label="Verification code" name="otp" value={code} onChange={setCode} autoComplete="one-time-code" inputMode="numeric" />
          ) : (
            <PasswordField label="Password of that account" name="password" value={password} onChange={setPassword} autoComplete="current-password" />
          )}
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            Link and sign in
          </button>
        </form>
        <div className="auth-form__links">
          {!codeSent && (
            <button
              type="button"
              className="link-button"
              disabled={busy}
              onClick={() => void run(async () => setCodeSent(await linkSendCode(cb.ticket)))}
            >
              E-mail me a code instead
            </button>
          )}
          <button type="button" className="link-button" onClick={onBack}>
            Cancel
          </button>
        </div>
      </div>
    </AuthCard>
  );
}
