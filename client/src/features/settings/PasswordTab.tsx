import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { isApiError, withTokenRotation } from '../../api/http';
import { currentUserAtom, replaceTokenAtom } from '../auth/authAtoms';
import { PasswordField, StrengthMeter } from '../auth/AuthCard';
import { CodeStep } from './CodeStep';
import { sendPasswordChangeCode, verifyPasswordChange } from './settingsApi';
import {
  MSG_CURRENT_PASSWORD_INCORRECT,
  MSG_PASSWORD_UPDATED,
  MSG_SEND_OTP_FAILED,
  settingsErrorMessage,
  validatePasswordChange,
} from './validation';

/**
 * docs/product.md §2.16 Password & Security, §4 Password change: form, current password
 * checked and a code sent, code entry, updated with the form cleared. The
 * change revokes older tokens; the new one is stored.
 */
export function PasswordTab() {
  const me = useAtomValue(currentUserAtom);
  const replaceToken = useSetAtom(replaceTokenAtom);
  const [step, setStep] = useState<'form' | 'code'>('form');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  if (!me) return null;

  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSuccess(null);
    const invalid = validatePasswordChange(next, confirm);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setSending(true);
    try {
      await sendPasswordChangeCode(current);
      setStep('code');
    } catch (err) {
      // A 400 without a message here can only be the current password.
      const fallback = isApiError(err) && err.status === 400 ? MSG_CURRENT_PASSWORD_INCORRECT : MSG_SEND_OTP_FAILED;
      setError(settingsErrorMessage(err, fallback));
    } finally {
      setSending(false);
    }
  };

  const verify = async (otp: string) => {
    await withTokenRotation(async () => {
      const res = await verifyPasswordChange(otp, next);
      replaceToken(res.token);
    });
    setStep('form');
    setCurrent('');
    setNext('');
    setConfirm('');
    setSuccess(MSG_PASSWORD_UPDATED);
  };

  return (
    <div className="settings-panel">
      <h2 className="settings-panel__title">Password &amp; Security</h2>
      <p className="muted">Changing your password signs you out everywhere else.</p>
      {success && (
        <p className="alert alert--success" role="status">
          {success}
        </p>
      )}
      {step === 'form' ? (
        <form className="settings-form" onSubmit={(e) => void send(e)} noValidate>
          <PasswordField label="Current password" value={current} onChange={setCurrent} autoComplete="current-password" />
          <PasswordField label="New password" value={next} onChange={setNext} autoComplete="new-password">
            <StrengthMeter password={next} />
          </PasswordField>
          <PasswordField label="Confirm new password" value={confirm} onChange={setConfirm} autoComplete="new-password" />
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <div className="settings-form__actions">
            <button type="submit" className="button button--primary" disabled={sending}>
              {sending ? 'Sending...' : 'Send Verification Code'}
            </button>
          </div>
        </form>
      ) : (
        <CodeStep
          email={me.email}
          onVerify={verify}
          onResend={async () => {
            await sendPasswordChangeCode(current);
          }}
          onBack={() => {
            setStep('form');
            setError(null);
          }}
          verifyLabel="Verify & Update Password"
        />
      )}
    </div>
  );
}
