import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import type { Role } from '../../api/models';
import { signup } from './authApi';
import { configAtom } from '../../api/config';
import { SsoButtons } from './SsoButtons';
import { ssoOnlyMessage } from './ssoApi';
import { authScreenAtom, showAuthScreenAtom } from './authFlowAtoms';
import { AuthCard, PasswordField, RoleToggle, StrengthMeter, TextField } from './AuthCard';
import { readSignupHandoff, saveSignupHandoff } from './signupHandoff';
import { signupErrorMessage, signupPayload, validateSignup, type SignupForm } from './validation';

/** docs/product.md §2.5 Signup: student or faculty. */
export function SignupPage() {
  const { sso, passwordSignup } = useAtomValue(configAtom);
  const screen = useAtomValue(authScreenAtom);
  const show = useSetAtom(showAuthScreenAtom);
  const [form, setForm] = useState<SignupForm>(() => {
    // Coming back from the verify screen: keep what was typed (never the passwords).
    const h = readSignupHandoff();
    const fromScreen = screen.name === 'signup' ? screen : undefined;
    return {
      role: fromScreen?.role ?? h?.role ?? 'student',
      name: h?.fullName ?? '',
      email: fromScreen?.email ?? h?.email ?? '',
      universityId: h?.universityId ?? '',
      program: h?.program ?? '',
      batch: h?.batch ?? '',
      department: h?.department ?? '',
      password: '',
      confirmPassword: '',
    };
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof SignupForm>(k: K) => (v: SignupForm[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setError(null); // the message was about what is being fixed
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const invalid = validateSignup(form);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setBusy(true);
    const payload = signupPayload(form);
    try {
      const res = await signup(payload);
      saveSignupHandoff({
        role: form.role,
        fullName: payload.name,
        email: res.email,
        universityId: payload.universityId ?? '',
        program: payload.program ?? '',
        batch: payload.batch ?? '',
        department: payload.department ?? '',
      });
      show({ name: 'verify', email: res.email, notice: res.message || undefined });
    } catch (err) {
      setBusy(false);
      setError(signupErrorMessage(err));
    }
  };

  const student = form.role === 'student';
  return (
    <AuthCard title="Create your account" subtitle="Join your campus network." wide>
      <SsoButtons />
      {!passwordSignup ? (
        <p className="alert alert--info" role="status">
          {ssoOnlyMessage('Sign-up with a password is turned off here: your account is made the first time you sign in.', sso)}
        </p>
      ) : (
        <form className="auth-form" onSubmit={(e) => void onSubmit(e)} noValidate>
          {sso.length > 0 && <div className="auth-form__divider">or with a password</div>}
          <RoleToggle value={form.role} onChange={(r: Role) => setForm((f) => ({ ...f, role: r }))} label="I am a" />
          <TextField label="Full name" name="name" value={form.name} onChange={set('name')} autoComplete="name" />
          <TextField label="Email" name="email" type="email" value={form.email} onChange={set('email')} autoComplete="email" placeholder="you@university.edu" />
          {student ? (
            <>
              <TextField
                label="University ID"
                name="universityId"
                value={form.universityId}
                onChange={(v) => set('universityId')(v.toUpperCase())}
                placeholder="BWU/BCA/20/123"
                hint="Format: BWU/BCA/20/123"
                autoComplete="off"
              />
              <div className="auth-form__row">
                <TextField label="Program" name="program" value={form.program} onChange={set('program')} placeholder="BCA" />
                <TextField label="Batch" name="batch" value={form.batch} onChange={set('batch')} placeholder="2020" />
              </div>
            </>
          ) : (
            <TextField label="Department" name="department" value={form.department} onChange={set('department')} placeholder="Computer Science" />
          )}
          <div className="auth-form__row">
            <PasswordField label="Password" name="password" value={form.password} onChange={set('password')} autoComplete="new-password">
              <StrengthMeter password={form.password} />
            </PasswordField>
            <PasswordField
              label="Confirm password"
              name="confirmPassword"
              value={form.confirmPassword}
              onChange={set('confirmPassword')}
              autoComplete="new-password"
            />
          </div>
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? 'Creating account…' : 'Sign Up'}
          </button>
          <p className="auth-form__center">
            Already have an account?{' '}
            <button type="button" className="link-button" onClick={() => show({ name: 'login', role: form.role })}>
              Sign in
            </button>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
