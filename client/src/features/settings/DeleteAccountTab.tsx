import { useAtomValue, useSetAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { leaveTo, redirectTo } from '../../lib/redirect';
import { currentUserAtom, clearSessionAtom } from '../auth/authAtoms';
import { CodeStep } from './CodeStep';
import { sendDeleteAccountCode, verifyDeleteAccount } from './settingsApi';
import { isDeleteConfirmed, MSG_SEND_OTP_FAILED, settingsErrorMessage } from './validation';

type Step = 'start' | 'confirm' | 'code';

/**
 * docs/product.md §2.16 Delete Account, §4: button, type-DELETE confirmation, code sent,
 * code entry, verified, then signed out.
 */
export function DeleteAccountTab() {
  const me = useAtomValue(currentUserAtom);
  const clearSession = useSetAtom(clearSessionAtom);
  const confirmId = useId();
  const [step, setStep] = useState<Step>('start');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  if (!me) return null;

  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!isDeleteConfirmed(typed)) return;
    setError(null);
    setSending(true);
    try {
      await sendDeleteAccountCode();
      setStep('code');
    } catch (err) {
      setError(settingsErrorMessage(err, MSG_SEND_OTP_FAILED));
    } finally {
      setSending(false);
    }
  };

  const verify = async (otp: string) => {
    // Whichever sign-out comes first (this answer, or a 401 a call or the
    // socket meets as the account's tokens die with it) goes to the page
    // that says the account was deleted.
    leaveTo('/login?deleted=1');
    try {
      await verifyDeleteAccount(otp);
    } catch (err) {
      leaveTo(null);
      throw err;
    }
    // The account and its tokens are gone: sign out here and start over.
    clearSession();
    // The login page reads the flag and says what happened (issue 16 #9).
    redirectTo('/login?deleted=1');
  };

  return (
    <div className="settings-panel">
      <h2 className="settings-panel__title settings-panel__title--danger">Delete Account</h2>
      <p className="muted">
        Deleting your account removes your profile, posts, comments, likes, friends and notifications for good. This
        cannot be undone.
      </p>
      {step === 'start' && (
        <div className="settings-form__actions">
          <button type="button" className="button button--danger" onClick={() => setStep('confirm')}>
            Delete Account
          </button>
        </div>
      )}
      {step === 'confirm' && (
        <form className="settings-form" onSubmit={(e) => void send(e)} noValidate>
          <div className="field">
            <label className="field__label" htmlFor={confirmId}>
              Type DELETE to confirm
            </label>
            <input
              id={confirmId}
              className="field__input"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              autoFocus
            />
          </div>
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <div className="settings-form__actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setStep('start');
                setTyped('');
                setError(null);
              }}
              disabled={sending}
            >
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={sending || !isDeleteConfirmed(typed)}>
              {sending ? 'Sending...' : 'Send Verification Code'}
            </button>
          </div>
        </form>
      )}
      {step === 'code' && (
        <CodeStep
          email={me.email}
          onVerify={verify}
          onResend={async () => {
            await sendDeleteAccountCode();
          }}
          onBack={() => setStep('confirm')}
          verifyLabel="Verify & Delete Account"
          danger
        />
      )}
    </div>
  );
}
