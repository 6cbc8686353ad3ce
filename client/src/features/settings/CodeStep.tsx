import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '../../api/http';
import { OTP_EXPIRY_MINUTES, RESEND_COOLDOWN_S, RESEND_MESSAGE_MS } from '../../constants';
import { OtpInput } from '../../ui/OtpInput';
import { useCooldown } from '../auth/useCooldown';
import { maskEmail, MSG_OTP_RESENT, MSG_RESEND_FAILED, MSG_VERIFY_FAILED, settingsErrorMessage, validateOtpBoxes } from './validation';

export interface CodeStepProps {
  /** Where the code went (shown masked: first 2 characters then ***). */
  email: string;
  /** Checks the code; rejects with the server's error. */
  onVerify: (otp: string) => Promise<void>;
  /** Sends a new code (the send call again). */
  onResend: () => Promise<void>;
  onBack: () => void;
  verifyLabel?: string;
  /** Danger styling for the delete flow. */
  danger?: boolean;
}

/**
 * The code prompt of the settings flows (docs/product.md §4, §5): six single-digit
 * boxes, Verify, Resend with the 60 s cooldown, Back to the form.
 */
export function CodeStep({ email, onVerify, onResend, onBack, verifyLabel = 'Verify', danger }: CodeStepProps) {
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  // A code was just sent: the cooldown starts at once.
  const [cooldown, startCooldown] = useCooldown(RESEND_COOLDOWN_S);
  const infoTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
      clearTimeout(infoTimer.current);
    },
    [],
  );

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const invalid = validateOtpBoxes(otp);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setInfo(null);
    setBusy(true);
    try {
      await onVerify(otp);
    } catch (err) {
      if (!mounted.current) return;
      setError(settingsErrorMessage(err, MSG_VERIFY_FAILED));
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  const resend = async () => {
    setResending(true);
    setError(null);
    clearTimeout(infoTimer.current);
    try {
      await onResend();
      if (!mounted.current) return;
      setInfo(MSG_OTP_RESENT);
      setOtp('');
      startCooldown(RESEND_COOLDOWN_S);
      infoTimer.current = setTimeout(() => setInfo(null), RESEND_MESSAGE_MS);
    } catch (err) {
      if (!mounted.current) return;
      setInfo(null);
      if (isApiError(err) && err.retryAfter !== undefined) startCooldown(err.retryAfter);
      setError(settingsErrorMessage(err, MSG_RESEND_FAILED));
    } finally {
      if (mounted.current) setResending(false);
    }
  };

  return (
    <form className="settings-form" onSubmit={(e) => void submit(e)} noValidate>
      <p>
        Enter the 6-digit code we sent to <strong>{maskEmail(email)}</strong>.
      </p>
      <p className="muted settings-form__hint">The code expires in {OTP_EXPIRY_MINUTES} minutes.</p>
      <OtpInput value={otp} onChange={setOtp} disabled={busy} autoFocus label="Verification code" />
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {info && (
        <p className="alert alert--success" role="status">
          {info}
        </p>
      )}
      <div className="settings-form__actions">
        <button type="button" className="button button--secondary" onClick={onBack} disabled={busy}>
          Back
        </button>
        <button type="button" className="button button--ghost" onClick={() => void resend()} disabled={busy || resending || cooldown > 0}>
          {resending ? 'Sending...' : cooldown > 0 ? `Resend OTP (${cooldown}s)` : 'Resend OTP'}
        </button>
        <button type="submit" className={`button ${danger ? 'button--danger' : 'button--primary'}`} disabled={busy}>
          {busy ? 'Verifying...' : verifyLabel}
        </button>
      </div>
    </form>
  );
}
