import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { isApiError, suspensionMessage, type ApiError } from '../../api/http';
import { isRecord, str, type Role } from '../../api/models';
import { clearAllStoredData, readString, removeKey, STORAGE_KEYS } from '../../lib/storage';
import { login } from './authApi';
import { configAtom } from '../../api/config';
import { SsoButtons } from './SsoButtons';
import { ssoOnlyMessage } from './ssoApi';
import { signInAtom } from './authAtoms';
import { authScreenAtom, showAuthScreenAtom } from './authFlowAtoms';
import { AuthCard, PasswordField, RoleToggle, TextField } from './AuthCard';
import { ServerStatus } from './ServerStatus';
import {
  identifierKind,
  isEmail,
  loginFailure,
  MSG_CLEAR_STORED_DATA,
  MSG_STORED_DATA_HINT,
  validateLogin,
  type LoginFailure,
} from './validation';

/**
 * A 403 "verify your e-mail first" (not the wrong-role 403): the server names
 * the address in a field error, masked (as***@uni.edu) since the caller may
 * only know the university ID.
 */
export function unverifiedInfo(err: ApiError, identifier: string): { email: string; masked: string } | null {
  const field = err.fieldMessage('email');
  if (field === undefined && !/verify/i.test(err.serverMessage ?? '')) return null;
  const b = err.body;
  const candidates = [
    identifierKind(identifier) === 'email' ? identifier.trim().toLowerCase() : '',
    isRecord(b) ? str(b.email) : '',
    field ?? '',
  ];
  const email = candidates.find((c) => isEmail(c) && !c.includes('*')) ?? '';
  return { email, masked: field ?? '' };
}

export const MSG_ACCOUNT_DELETED = 'Your account has been deleted.';

/**
 * True once when the page was opened by the account deletion's redirect
 * (/login?deleted=1); the flag is taken off the address so a reload is quiet.
 */
function takeDeletedFlag(): boolean {
  const params = new URLSearchParams(window.location.search);
  if (params.get('deleted') !== '1') return false;
  params.delete('deleted');
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
  return true;
}

/**
 * Why the server signed this tab out, once: a suspension's reason and end,
 * which the 401 that signed it out carried (api/http).
 */
function takeSignOutNotice(): string | null {
  const why = readString(STORAGE_KEYS.signOutNotice);
  if (why !== null) removeKey(STORAGE_KEYS.signOutNotice);
  return why && why.trim() !== '' ? why : null;
}

/** docs/product.md §2.3 Login. */
export function LoginPage() {
  const { sso, passwordLogin } = useAtomValue(configAtom);
  const screen = useAtomValue(authScreenAtom);
  const show = useSetAtom(showAuthScreenAtom);
  const signIn = useSetAtom(signInAtom);
  const prefill = screen.name === 'login' ? screen : undefined;
  const [identifier, setIdentifier] = useState(prefill?.identifier ?? '');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>(prefill?.role ?? 'student');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleted] = useState(takeDeletedFlag);
  const notice = prefill?.notice ?? (deleted ? MSG_ACCOUNT_DELETED : undefined);
  // A suspended account is told why and until when, on arrival (signed out
  // by the server) and after a login attempt; nothing on this page can
  // change it, so neither sign-up nor clearing stored data is offered.
  const [suspended, setSuspended] = useState<string | null>(takeSignOutNotice);

  const submit = async () => {
    const invalid = validateLogin({ identifier, password });
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setFailure(null);
    setSuspended(null);
    setBusy(true);
    try {
      const session = await login(identifier, password, role);
      signIn(session);
    } catch (err) {
      setBusy(false);
      const unverified = isApiError(err) && err.status === 403 ? unverifiedInfo(err, identifier) : null;
      if (unverified && isApiError(err)) {
        show({ name: 'verify', email: unverified.email, maskedEmail: unverified.masked, notice: err.serverMessage });
        return;
      }
      const why = suspensionMessage(err);
      if (why) {
        setSuspended(why);
        return;
      }
      setFailure(loginFailure(err instanceof Error ? err.message : undefined, identifier));
    }
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void submit();
  };

  const clearAndRetry = () => {
    clearAllStoredData();
    void submit();
  };

  return (
    <AuthCard
      title="Welcome back"
      subtitle={passwordLogin ? 'Sign in with your email or university ID.' : 'Sign in with your university account.'}
    >
      {notice && (
        <p className="alert alert--success" role="status">
          {notice}
        </p>
      )}
      <SsoButtons />
      {!passwordLogin ? (
        <p className="alert alert--info" role="status">
          {ssoOnlyMessage('Signing in with a password is turned off here.', sso)}
        </p>
      ) : (
        <form className="auth-form" onSubmit={onSubmit} noValidate>
          {sso.length > 0 && <div className="auth-form__divider">or with your password</div>}
          <RoleToggle value={role} onChange={setRole} label="I am a" />
          <TextField
            label="Email or university ID"
            name="identifier"
            value={identifier}
            onChange={setIdentifier}
            autoComplete="username"
            placeholder={role === 'student' ? 'you@university.edu or BWU/BCA/20/123' : 'you@university.edu'}
          />
          <PasswordField label="Password" name="password" value={password} onChange={setPassword} />

          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          {suspended && (
            <p className="alert alert--error" role="alert">
              {suspended}
            </p>
          )}
          {failure && (
            <div className="alert alert--error" role="alert">
              <p>{failure.message}</p>
              {failure.suggestSignup && (
                <>
                  <p className="login__suggest">{failure.suggestSignup}</p>
                  <div className="alert__actions">
                    <button
                      type="button"
                      className="button button--primary button--sm"
                      onClick={() =>
                        show({ name: 'signup', role, email: identifierKind(identifier) === 'email' ? identifier.trim() : undefined })
                      }
                    >
                      Sign Up Now
                    </button>
                  </div>
                </>
              )}
            </div>
          )}
          {failure && (
            <div className="alert alert--info">
              <p>{MSG_STORED_DATA_HINT}</p>
              <div className="alert__actions">
                <button type="button" className="button button--secondary button--sm" onClick={clearAndRetry} disabled={busy}>
                  {MSG_CLEAR_STORED_DATA}
                </button>
              </div>
            </div>
          )}

          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign In'}
          </button>
          <div className="auth-form__links">
            <button type="button" className="link-button" onClick={() => show({ name: 'forgot', identifier, role })}>
              Forgot password?
            </button>
          </div>
          <div className="auth-form__divider">or</div>
          <button type="button" className="button button--secondary button--block" onClick={() => show({ name: 'signup', role })}>
            Create New Account
          </button>
        </form>
      )}
      <ServerStatus />
    </AuthCard>
  );
}
