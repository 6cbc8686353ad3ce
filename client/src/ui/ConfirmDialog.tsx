import { Modal } from './Modal';

/** Asks before a destructive action; the confirm button says what happens. */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  busy = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open={open} onClose={onClose} title={title} size="sm" closable={!busy}>
      <p>{body}</p>
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={busy} data-autofocus>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
