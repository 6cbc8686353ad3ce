import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '../../api/http';
import { OTP_EXPIRY_MINUTES, OTP_LENGTH, RESEND_COOLDOWN_S, RESEND_MESSAGE_MS } from '../../constants';
import { resendOtp, verifyOtp } from './authApi';
import { signInAtom } from './authAtoms';
import { authScreenAtom, showAuthScreenAtom } from './authFlowAtoms';
import { AuthCard, TextField } from './AuthCard';
import { useCooldown } from './useCooldown';
import {
  isCompleteOtp,
  isEmail,
  MSG_INVALID_EMAIL,
  MSG_INVALID_OTP,
  MSG_OTP_INCOMPLETE,
  MSG_RESEND_FAILED,
  MSG_RESEND_OK,
  sanitizeOtp,
} from './validation';

/**
 * docs/product.md §2.6 E-mail verification. A code was just sent, so the resend
 * cooldown starts at once. onVerified runs when the code is accepted, just
 * before the new account is signed in (the app starts onboarding there).
 */
export function VerifyEmailPage({ onVerified }: { onVerified?: () => void }) {
  const screen = useAtomValue(authScreenAtom);
  const show = useSetAtom(showAuthScreenAtom);
  const signIn = useSetAtom(signInAtom);
  const knownEmail = screen.name === 'verify' ? screen.email : '';
  const masked = screen.name === 'verify' ? (screen.maskedEmail ?? '') : '';
  const [typedEmail, setTypedEmail] = useState('');
  const email = knownEmail || typedEmail.trim().toLowerCase();
  const notice = screen.name === 'verify' ? screen.notice : undefined;
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const [cooldown, startCooldown] = useCooldown(RESEND_COOLDOWN_S);
  const infoTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(infoTimer.current), []);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!isEmail(email)) {
      setError(MSG_INVALID_EMAIL);
      return;
    }
    if (!isCompleteOtp(otp)) {
      setError(MSG_OTP_INCOMPLETE);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const session = await verifyOtp(email, otp);
      // Onboarding first, in the same update, so the feed never flashes.
      onVerified?.();
      signIn(session);
    } catch {
      setBusy(false);
      setError(MSG_INVALID_OTP);
    }
  };

  const onResend = async () => {
    if (!isEmail(email)) {
      setError(MSG_INVALID_EMAIL);
      return;
    }
    setResending(true);
    setError(null);
    clearTimeout(infoTimer.current);
    try {
      await resendOtp(email);
      setInfo(MSG_RESEND_OK);
      startCooldown(RESEND_COOLDOWN_S);
      infoTimer.current = setTimeout(() => setInfo(null), RESEND_MESSAGE_MS);
    } catch (err) {
      setInfo(null);
      if (isApiError(err) && err.retryAfter !== undefined) startCooldown(err.retryAfter);
      setError(MSG_RESEND_FAILED);
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthCard
      title="Verify your email"
      subtitle={
        <>
          Enter the {OTP_LENGTH}-digit code we sent to <strong>{knownEmail || masked || 'your email'}</strong>.
        </>
      }
    >
      <form className="auth-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {notice && !info && (
          <p className="alert alert--info" role="status">
            {notice}
          </p>
        )}
        {!knownEmail && (
          <TextField
            label="Email"
            name="email"
            type="email"
            value={typedEmail}
            onChange={setTypedEmail}
            autoComplete="email"
            placeholder={masked || 'you@university.edu'}
            hint="The address you signed up with."
          />
        )}
        <div className="field">
          <label className="field__label" htmlFor="verify-code">
            Verification code
          </label>
          <input
            id="verify-code"
            className="field__input auth-form__code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            placeholder="••••••"
            value={otp}
            onChange={(e) => setOtp(sanitizeOtp(e.target.value))}
            autoFocus={!!knownEmail}
          />
          <p className="field__hint">The code expires in {OTP_EXPIRY_MINUTES} minutes.</p>
        </div>
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
        <button type="submit" className="button button--primary button--block" disabled={busy || otp.length !== OTP_LENGTH}>
          {busy ? 'Verifying…' : 'Verify Email'}
        </button>
        <div className="auth-form__links">
          <button type="button" className="link-button" onClick={() => show({ name: 'signup' })}>
            Back to Sign Up
          </button>
          <button type="button" className="link-button" onClick={() => void onResend()} disabled={cooldown > 0 || resending}>
            {cooldown > 0 ? `Resend Code (${cooldown}s)` : resending ? 'Sending…' : 'Resend Code'}
          </button>
        </div>
      </form>
    </AuthCard>
  );
}
