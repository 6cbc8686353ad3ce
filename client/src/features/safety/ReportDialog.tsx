import { useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../api/http';
import { Modal } from '../../ui/Modal';
import { showToastAtom } from '../../ui/toast';
import { MAX_REPORT_DETAILS, report, REPORT_REASONS, type ReportItemType, type ReportReason } from './safetyApi';
import './Safety.css';

/**
 * Reports a post, comment or profile with a reason; the reporter is never shown to the reported person.
 * `send` replaces the call for things reported elsewhere (a message: its conversation's report route).
 */
export function ReportDialog({
  open,
  itemType,
  itemId,
  onClose,
  send,
}: {
  open: boolean;
  itemType: ReportItemType | 'message';
  itemId: string;
  onClose: () => void;
  send?: (reason: ReportReason, details: string) => Promise<string>;
}) {
  const toast = useSetAtom(showToastAtom);
  const [reason, setReason] = useState<ReportReason>('spam');
  const [details, setDetails] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const message = send
        ? await send(reason, details.trim())
        : itemType === 'message'
          ? ''
          : await report(itemType, itemId, reason, details.trim());
      toast({ message: message || 'Thanks for reporting.', tone: 'success' });
      setDetails('');
      onClose();
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not send the report. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} title={`Report ${itemType}`} size="sm" closable={!busy}>
      <form className="safety-report" onSubmit={(e) => void submit(e)}>
        <fieldset className="safety-report__reasons">
          <legend>Why are you reporting this?</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r.id} className="safety-report__reason">
              <input type="radio" name="reason" value={r.id} checked={reason === r.id} onChange={() => setReason(r.id)} />
              {r.label}
            </label>
          ))}
        </fieldset>
        <label className="safety-report__details">
          <span>Details {reason === 'other' ? '(required)' : '(optional)'}</span>
          <textarea
            value={details}
            maxLength={MAX_REPORT_DETAILS}
            rows={3}
            onChange={(e) => setDetails(e.target.value)}
            required={reason === 'other'}
          />
          <small>
            {details.length}/{MAX_REPORT_DETAILS}
          </small>
        </label>
        {error && (
          <p className="safety-report__error" role="alert">
            {error}
          </p>
        )}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button--danger" disabled={busy}>
            Send report
          </button>
        </div>
      </form>
    </Modal>
  );
}
