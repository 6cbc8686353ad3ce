import { useAtomValue } from 'jotai';
import { useId, useState, type ReactNode } from 'react';
import type { Role } from '../../api/models';
import { productNameAtom } from '../../api/config';
import { passwordStrength, type PasswordStrength } from './validation';
import './AuthCard.css';

/** The card every signed-out screen sits in: product mark, title, subtitle. */
export function AuthCard({ title, subtitle, children, wide }: { title: string; subtitle?: ReactNode; children: ReactNode; wide?: boolean }) {
  const productName = useAtomValue(productNameAtom);
  const id = useId();
  return (
    <section className={`auth-card${wide ? ' auth-card--wide' : ''}`} aria-labelledby={`${id}-title`}>
      <header className="auth-card__header">
        <span className="auth-card__mark" aria-hidden="true">
          {productName.charAt(0).toUpperCase()}
        </span>
        <p className="auth-card__product">{productName}</p>
        <h1 id={`${id}-title`} className="auth-card__title">
          {title}
        </h1>
        {subtitle && <p className="auth-card__subtitle">{subtitle}</p>}
      </header>
      {children}
    </section>
  );
}

const ROLES: ReadonlyArray<{ value: Role; label: string }> = [
  { value: 'student', label: 'Student' },
  { value: 'faculty', label: 'Faculty' },
];

/** Student / Faculty (docs/product.md §2.3–§2.5). */
export function RoleToggle({ value, onChange, label = 'Role' }: { value: Role; onChange: (r: Role) => void; label?: string }) {
  const name = useId();
  return (
    <fieldset className="segmented" aria-label={label}>
      <legend className="visually-hidden">{label}</legend>
      {ROLES.map((r) => (
        <label key={r.value} className="segmented__option">
          <input type="radio" name={name} value={r.value} checked={value === r.value} onChange={() => onChange(r.value)} />
          <span>{r.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  hint?: ReactNode;
  inputMode?: 'text' | 'numeric' | 'email';
  autoFocus?: boolean;
  maxLength?: number;
  name?: string;
  disabled?: boolean;
}

export function TextField({ label, value, onChange, type = 'text', hint, ...rest }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        autoCapitalize={type === 'email' || type === 'password' ? 'none' : undefined}
        spellCheck={type === 'email' ? false : undefined}
        {...rest}
      />
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A password box with a Show/Hide toggle (docs/product.md §2.3). */
export function PasswordField({
  label,
  value,
  onChange,
  autoComplete = 'current-password',
  children,
  name,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  autoComplete?: string;
  children?: ReactNode;
  name?: string;
}) {
  const id = useId();
  const [show, setShow] = useState(false);
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__with-action">
        <input
          id={id}
          className="field__input"
          type={show ? 'text' : 'password'}
          name={name}
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="field__action"
          aria-pressed={show}
          aria-controls={id}
          aria-label={show ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          onClick={() => setShow((v) => !v)}
        >
          {show ? 'Hide' : 'Show'}
        </button>
      </div>
      {children}
    </div>
  );
}

const STRENGTH_LABEL: Record<PasswordStrength, string> = { weak: 'Weak', medium: 'Medium', strong: 'Strong' };

/** docs/product.md §5 strength meter: weak, medium or strong, as a class and a word. */
export function StrengthMeter({ password }: { password: string }) {
  if (password === '') return null;
  const s = passwordStrength(password);
  return (
    <div className={`strength-meter strength-meter--${s}`} data-strength={s}>
      <div className="strength-meter__track" aria-hidden="true">
        <span className="strength-meter__bar" />
      </div>
      <p className="strength-meter__label" aria-live="polite">
        Password strength: <strong>{STRENGTH_LABEL[s]}</strong>
      </p>
    </div>
  );
}
