import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { configAtom, type SsoProvider } from '../../api/config';
import { PasswordField } from '../auth/AuthCard';
import { fetchSignIns, removeSignIn, startSso, type LinkedSignIn } from '../auth/ssoApi';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** Where a link started here comes back to: this tab, saying which sign-in was linked. */
export function signInsReturnPath(provider: string): string {
  return `/settings?tab=sign-ins&linked=${encodeURIComponent(provider)}`;
}

export const MSG_ENTER_PASSWORD = 'Please enter your current password.';

function linkedDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/**
 * Settings → Linked sign-ins: the university sign-ins that open this
 * account, linking another (the server asks for the account's password
 * first, when it has one, so a session left open is not enough), and
 * removing one (the server refuses the only way in, with its reason).
 * `linked` names the provider a link just came back from.
 */
export function SignInsTab({ linked }: { linked?: string }) {
  const { sso } = useAtomValue(configAtom);
  const [signIns, setSignIns] = useState<LinkedSignIn[]>([]);
  const [hasPassword, setHasPassword] = useState(false);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [notice, setNotice] = useState<string | null>(null);
  const [justLinked, setJustLinked] = useState(linked);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [starting, setStarting] = useState<string | null>(null);
  const [pending, setPending] = useState<LinkedSignIn | null>(null);
  const [removing, setRemoving] = useState(false);

  const load = useCallback(async () => {
    try {
      const res = await fetchSignIns();
      setSignIns(res.signIns);
      setHasPassword(res.hasPassword);
      setStatus('ready');
    } catch {
      setStatus('error');
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const link = async (p: SsoProvider) => {
    setNotice(null);
    setJustLinked(undefined);
    if (hasPassword && password === '') {
      setError(MSG_ENTER_PASSWORD);
      return;
    }
    setError(null);
    setStarting(p.id);
    try {
      window.location.assign(await startSso(p.id, signInsReturnPath(p.id), { password }));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Sign-in could not start. Please try again.');
      setStarting(null);
    }
  };

  const remove = async () => {
    if (!pending) return;
    setRemoving(true);
    setNotice(null);
    setJustLinked(undefined);
    setError(null);
    try {
      await removeSignIn(pending.id);
      setSignIns((prev) => prev.filter((s) => s.id !== pending.id));
      setNotice(`${pending.name} is no longer linked to your account.`);
    } catch (err) {
      // The server's reason (the only way in, or already gone) as it says it.
      setError(err instanceof Error ? err.message : 'Something went wrong. Please try again.');
    } finally {
      setRemoving(false);
      setPending(null);
    }
  };

  // The sign-in a link just came back from (named once the config or the list is in).
  const linkedName = justLinked ? (sso.find((p) => p.id === justLinked)?.name ?? signIns.find((s) => s.protocol === justLinked)?.name) : undefined;
  const shownNotice = notice ?? (linkedName ? `${linkedName} is linked: you can sign in with it from now on.` : null);
  const linkedProtocols = new Set(signIns.map((s) => s.protocol));
  const unlinked = sso.filter((p) => !linkedProtocols.has(p.id));
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (unlinked.length === 1 && unlinked[0]) void link(unlinked[0]);
  };

  return (
    <div className="settings-panel">
      <h2 className="settings-panel__title">Linked sign-ins</h2>
      <p className="muted">Sign in to this account with your university account, as well as or instead of a password.</p>
      {shownNotice && (
        <p className="alert alert--success" role="status">
          {shownNotice}
        </p>
      )}
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {status === 'loading' && <p aria-busy="true">Loading…</p>}
      {status === 'error' && <p role="alert">Could not load your sign-ins. Please try again later.</p>}
      {status === 'ready' && signIns.length === 0 && <p className="muted">No university sign-in is linked to this account yet.</p>}
      {signIns.length > 0 && (
        <ul className="sign-ins" aria-label="Linked sign-ins">
          {signIns.map((s) => (
            <li key={s.id} className="sign-ins__row">
              <div className="sign-ins__text">
                <span className="sign-ins__name">{s.name}</span>
                <span className="sign-ins__detail">{s.email}</span>
                {linkedDate(s.linkedAt) && <span className="sign-ins__detail">Linked {linkedDate(s.linkedAt)}</span>}
              </div>
              <button
                type="button"
                className="button button--secondary button--sm"
                aria-label={`Remove ${s.name} (${s.email})`}
                onClick={() => setPending(s)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {status === 'ready' && unlinked.length > 0 && (
        <form className="settings-form" onSubmit={onSubmit} noValidate aria-labelledby="link-sign-in-title">
          <h3 id="link-sign-in-title" className="settings-panel__subtitle">
            Link a university sign-in
          </h3>
          <p className="settings-form__hint muted">
            You will sign in at your university and come back here.
            {hasPassword && ' First, confirm it is you with your current password.'}
          </p>
          {hasPassword && (
            <PasswordField label="Current password" name="password" value={password} onChange={setPassword} autoComplete="current-password" />
          )}
          <div className="settings-form__actions">
            {unlinked.map((p) => (
              <button
                key={p.id}
                type="button"
                className="button button--primary"
                disabled={starting !== null}
                onClick={() => void link(p)}
              >
                {starting === p.id ? 'Redirecting…' : `Link ${p.name}`}
              </button>
            ))}
          </div>
        </form>
      )}
      <ConfirmDialog
        open={pending !== null}
        title="Remove this sign-in?"
        body={pending ? `You will no longer be able to sign in with ${pending.name} (${pending.email}).` : ''}
        confirmLabel="Remove"
        busy={removing}
        onConfirm={() => void remove()}
        onClose={() => setPending(null)}
      />
    </div>
  );
}
