import { useAtomValue } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { productNameAtom } from '../../app/config';
import { ServerStatus } from './ServerStatus';
import './SignInPage.css';

export type Role = 'student' | 'faculty';

const ROLES: ReadonlyArray<{ value: Role; label: string }> = [
  { value: 'student', label: 'Student' },
  { value: 'faculty', label: 'Faculty' },
];

/**
 * Placeholder login screen (spec §2.3): identifier (e-mail or university ID),
 * password with show/hide, role (student by default). Signing in arrives in a
 * later issue, so the button is disabled.
 */
export function SignInPage() {
  const productName = useAtomValue(productNameAtom);
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [role, setRole] = useState<Role>('student');
  const id = useId();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault(); // nothing to submit yet
  };

  return (
    <section className="sign-in" aria-labelledby={`${id}-title`}>
      <header className="sign-in__header">
        <span className="sign-in__mark" aria-hidden="true">
          {productName.charAt(0).toUpperCase()}
        </span>
        <h1 id={`${id}-title`} className="sign-in__title">
          {productName}
        </h1>
        <p className="sign-in__subtitle">Sign in with your e-mail or university ID.</p>
      </header>

      <form className="sign-in__form" onSubmit={onSubmit} noValidate>
        <fieldset className="segmented" aria-label="Role">
          <legend className="visually-hidden">Role</legend>
          {ROLES.map((r) => (
            <label key={r.value} className="segmented__option">
              <input
                type="radio"
                name={`${id}-role`}
                value={r.value}
                checked={role === r.value}
                onChange={() => setRole(r.value)}
              />
              <span>{r.label}</span>
            </label>
          ))}
        </fieldset>

        <div className="field">
          <label className="field__label" htmlFor={`${id}-identifier`}>
            E-mail or university ID
          </label>
          <input
            id={`${id}-identifier`}
            className="field__input"
            type="text"
            name="identifier"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={role === 'student' ? 'you@university.edu or BWU/BCA/20/123' : 'you@university.edu'}
            value={identifier}
            onChange={(e) => setIdentifier(e.target.value)}
          />
        </div>

        <div className="field">
          <label className="field__label" htmlFor={`${id}-password`}>
            Password
          </label>
          <div className="field__with-action">
            <input
              id={`${id}-password`}
              className="field__input"
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button
              type="button"
              className="field__action"
              aria-pressed={showPassword}
              aria-controls={`${id}-password`}
              onClick={() => setShowPassword((v) => !v)}
            >
              {showPassword ? 'Hide' : 'Show'}
            </button>
          </div>
        </div>

        <button type="submit" className="button button--primary button--block" disabled aria-describedby={`${id}-soon`}>
          Sign In
        </button>
        <p id={`${id}-soon`} className="sign-in__note">
          Sign-in arrives soon.
        </p>
      </form>

      <ServerStatus />
    </section>
  );
}
