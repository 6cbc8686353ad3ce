import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { withTokenRotation } from '../../api/http';
import { currentUserAtom, replaceTokenAtom } from '../auth/authAtoms';
import { TextField } from '../auth/AuthCard';
import { CodeStep } from './CodeStep';
import { sendEmailChangeCode, verifyEmailChange } from './settingsApi';
import { MSG_EMAIL_UPDATED, MSG_SEND_CODE_FAILED, settingsErrorMessage, validateEmailChange } from './validation';

/** Read-only facts about the account. */
function Fact({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="settings-fact">
      <dt className="settings-fact__label">{label}</dt>
      <dd className="settings-fact__value">
        {value || '—'}
        {note && <span className="settings-fact__note">{note}</span>}
      </dd>
    </div>
  );
}

/**
 * docs/product.md §2.16 Personal Information and §4 Email change: form, code sent, code
 * entry, verified with 'Email updated successfully!' and the e-mail updated
 * locally (with the new token the change answers); Back returns to the form.
 * The university ID is shown and cannot be changed.
 */
export function PersonalInfoTab() {
  const me = useAtomValue(currentUserAtom);
  const replaceToken = useSetAtom(replaceTokenAtom);
  const [step, setStep] = useState<'form' | 'code'>('form');
  const [newEmail, setNewEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  if (!me) return null;

  const target = newEmail.trim().toLowerCase();

  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSuccess(null);
    const invalid = validateEmailChange(newEmail, me.email);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    setSending(true);
    try {
      await sendEmailChangeCode(target);
      setStep('code');
    } catch (err) {
      setError(settingsErrorMessage(err, MSG_SEND_CODE_FAILED));
    } finally {
      setSending(false);
    }
  };

  const verify = async (otp: string) => {
    await withTokenRotation(async () => {
      const res = await verifyEmailChange(otp, target);
      replaceToken(res.token, { email: res.user?.email || target });
    });
    setStep('form');
    setNewEmail('');
    setSuccess(MSG_EMAIL_UPDATED);
  };

  return (
    <div className="settings-panel">
      <h2 className="settings-panel__title">Personal Information</h2>
      <dl className="settings-facts">
        <Fact label="Name" value={me.name} />
        <Fact label="Email" value={me.email} />
        {me.role === 'faculty' ? (
          <Fact label="Department" value={me.department || me.collegeId} />
        ) : (
          <Fact label="University ID" value={me.universityId} note="University ID cannot be changed" />
        )}
        <Fact label="Role" value={me.role === 'faculty' ? 'Faculty' : 'Student'} />
      </dl>

      <h3 className="settings-panel__subtitle">Change email address</h3>
      {success && (
        <p className="alert alert--success" role="status">
          {success}
        </p>
      )}
      {step === 'form' ? (
        <form className="settings-form" onSubmit={(e) => void send(e)} noValidate>
          <TextField label="New email address" type="email" autoComplete="email" value={newEmail} onChange={setNewEmail} />
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
          email={target}
          onVerify={verify}
          onResend={async () => {
            await sendEmailChangeCode(target);
          }}
          onBack={() => {
            setStep('form');
            setError(null);
          }}
          verifyLabel="Verify & Update Email"
        />
      )}
    </div>
  );
}
