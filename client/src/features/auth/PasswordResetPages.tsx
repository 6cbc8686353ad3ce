import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '../../api/http';
import type { Role } from '../../api/models';
import {
  OTP_EXPIRY_MINUTES,
  OTP_LENGTH,
  RESEND_COOLDOWN_S,
  RESEND_MESSAGE_MS,
  RESET_REDIRECT_MS,
} from '../../constants';
import { forgotPassword, resetPassword } from './authApi';
import { authScreenAtom, showAuthScreenAtom } from './authFlowAtoms';
import { AuthCard, PasswordField, RoleToggle, StrengthMeter, TextField } from './AuthCard';
import { useCooldown } from './useCooldown';
import {
  MSG_IDENTIFIER_REQUIRED,
  MSG_RESEND_FAILED,
  MSG_RESEND_OK,
  MSG_RESET_FAILED,
  MSG_RESET_OK,
  MSG_SEND_OTP_FAILED,
  sanitizeOtp,
  validateReset,
} from './validation';

/** The server's message (never a 5xx's text), else the fallback (docs/product.md §8.2 forgot and reset). */
function serverMessageOr(err: unknown, fallback: string): string {
  if (isApiError(err)) {
    if (err.kind !== 'http' || err.status >= 500) return err.message;
    return err.serverMessage ?? fallback;
  }
  return fallback;
}

/** docs/product.md §2.4 Forgot password: identifier and role, Send OTP, Back to Login. */
export function ForgotPasswordPage() {
  const screen = useAtomValue(authScreenAtom);
  const show = useSetAtom(showAuthScreenAtom);
  const prefill = screen.name === 'forgot' ? screen : undefined;
  const [identifier, setIdentifier] = useState(prefill?.identifier ?? '');
  const [role, setRole] = useState<Role>(prefill?.role ?? 'student');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (identifier.trim() === '') {
      setError(MSG_IDENTIFIER_REQUIRED);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const message = await forgotPassword(identifier, role);
      show({ name: 'reset', identifier: identifier.trim(), role, notice: message || undefined });
    } catch (err) {
      setBusy(false);
      setError(serverMessageOr(err, MSG_SEND_OTP_FAILED));
    }
  };

  return (
    <AuthCard title="Forgot password" subtitle="We'll email you a code to reset it.">
      <form className="auth-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <RoleToggle value={role} onChange={setRole} label="I am a" />
        <TextField
          label="Email or university ID"
          name="identifier"
          value={identifier}
          onChange={setIdentifier}
          autoComplete="username"
          placeholder={role === 'student' ? 'you@university.edu or BWU/BCA/20/123' : 'you@university.edu'}
        />
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Sending…' : 'Send OTP'}
        </button>
        <p className="auth-form__center">
          <button type="button" className="link-button" onClick={() => show({ name: 'login', identifier, role })}>
            Back to Login
          </button>
        </p>
      </form>
    </AuthCard>
  );
}

/** docs/product.md §2.4 Reset password: code, new password with strength meter, confirm, resend with cooldown. */
export function ResetPasswordPage() {
  const screen = useAtomValue(authScreenAtom);
  const show = useSetAtom(showAuthScreenAtom);
  const identifier = screen.name === 'reset' ? screen.identifier : '';
  const role: Role = screen.name === 'reset' ? screen.role : 'student';
  const notice = screen.name === 'reset' ? screen.notice : undefined;
  const [otp, setOtp] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const [cooldown, startCooldown] = useCooldown(RESEND_COOLDOWN_S);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const later = (fn: () => void, ms: number) => timers.current.push(setTimeout(fn, ms));

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const invalid = validateReset({ otp, newPassword, confirmPassword });
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await resetPassword(identifier, role, otp, newPassword);
      setDone(true);
      later(() => show({ name: 'login', identifier, role }), RESET_REDIRECT_MS);
    } catch (err) {
      setBusy(false);
      setError(serverMessageOr(err, MSG_RESET_FAILED));
    }
  };

  const onResend = async () => {
    setResending(true);
    setResendError(null);
    try {
      await forgotPassword(identifier, role);
      setInfo(MSG_RESEND_OK);
      startCooldown(RESEND_COOLDOWN_S);
      later(() => setInfo(null), RESEND_MESSAGE_MS);
    } catch (err) {
      if (isApiError(err) && err.retryAfter !== undefined) startCooldown(err.retryAfter);
      // docs/product.md §8.2: in the reset flow the resend failure clears after 5 s.
      setInfo(null);
      setResendError(serverMessageOr(err, MSG_RESEND_FAILED));
      later(() => setResendError(null), RESEND_MESSAGE_MS);
    } finally {
      setResending(false);
    }
  };

  if (done) {
    return (
      <AuthCard title={MSG_RESET_OK} subtitle="You can now sign in with your new password.">
        <p className="alert alert--success" role="status">
          {MSG_RESET_OK}
        </p>
        <p className="auth-form__center">Taking you back to login…</p>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset password"
      subtitle={
        <>
          Enter the {OTP_LENGTH}-digit code sent for <strong>{identifier}</strong>.
        </>
      }
    >
      <form className="auth-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {notice && !info && (
          <p className="alert alert--info" role="status">
            {notice}
          </p>
        )}
        <div className="field">
          <label className="field__label" htmlFor="reset-code">
            OTP
          </label>
          <input
            id="reset-code"
            className="field__input auth-form__code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            placeholder="••••••"
            value={otp}
            onChange={(e) => {
              setOtp(sanitizeOtp(e.target.value));
              setError(null);
            }}
            autoFocus
          />
          <p className="field__hint">The code expires in {OTP_EXPIRY_MINUTES} minutes.</p>
        </div>
        <PasswordField label="New password" name="newPassword" value={newPassword} onChange={(v) => {
            setNewPassword(v);
            setError(null);
          }} autoComplete="new-password">
          <StrengthMeter password={newPassword} />
        </PasswordField>
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          value={confirmPassword}
          onChange={(v) => {
            setConfirmPassword(v);
            setError(null);
          }}
          autoComplete="new-password"
        />
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        {resendError && (
          <p className="alert alert--error" role="alert">
            {resendError}
          </p>
        )}
        {info && (
          <p className="alert alert--success" role="status">
            {info}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Resetting…' : 'Reset Password'}
        </button>
        <div className="auth-form__links">
          <button type="button" className="link-button" onClick={() => show({ name: 'login', identifier, role })}>
            Back to Login
          </button>
          <button type="button" className="link-button" onClick={() => void onResend()} disabled={cooldown > 0 || resending}>
            {cooldown > 0 ? `Resend OTP (${cooldown}s)` : resending ? 'Sending…' : 'Resend OTP'}
          </button>
        </div>
      </form>
    </AuthCard>
  );
}
