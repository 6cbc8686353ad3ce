import { Modal } from './Modal';

/**
 * How to install on iOS Safari, which has no install prompt (issue 27 item
 * 6): the Share button, then "Add to Home Screen".
 */
export function InstallHint({ open, onClose, productName }: { open: boolean; onClose: () => void; productName: string }) {
  return (
    <Modal open={open} onClose={onClose} title={`Install ${productName}`} size="sm" className="install-hint">
      <ol className="install-hint__steps">
        <li>
          Tap the <strong>Share</strong> button <ShareGlyph /> in Safari’s toolbar.
        </li>
        <li>
          Scroll down and tap <strong>Add to Home Screen</strong>.
        </li>
        <li>
          Tap <strong>Add</strong>: {productName} opens from your home screen like an app.
        </li>
      </ol>
      <div className="install-hint__actions">
        <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
          Got it
        </button>
      </div>
    </Modal>
  );
}

/** iOS's Share icon (a box with an arrow out of it), as it looks in Safari. */
function ShareGlyph() {
  return (
    <svg className="install-hint__glyph" width="18" height="18" viewBox="0 0 24 24" aria-label="(the square with an arrow pointing up)" role="img">
      <path d="M12 3v12M8 7l4-4 4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M6 11H5v10h14V11h-1" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
