import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { productNameAtom } from '../../api/config';
import { countFeedVisit, dismissNudge, nudgeDismissedAt, promptInstall, shouldNudge } from '../../lib/install';
import { CloseIcon, InstallIcon } from '../../ui/icons';
import { InstallHint } from '../../ui/InstallHint';
import { useInstallState } from '../../ui/useInstall';

/**
 * The feed's install card (issue 27 item 6): after a few visits, on a
 * browser that can install (its prompt kept, or iOS Safari's "Add to Home
 * Screen"), a quiet card offers it; "Not now" or × puts it away for weeks.
 */
export function InstallCard() {
  const state = useInstallState();
  const productName = useAtomValue(productNameAtom);
  const [visits] = useState(countFeedVisit);
  const [dismissedAt, setDismissedAt] = useState(nudgeDismissedAt);
  const [hint, setHint] = useState(false);
  const [now] = useState(() => Date.now());
  useEffect(() => {
    if (state === 'installed') setHint(false);
  }, [state]);
  const dismiss = () => {
    dismissNudge();
    setDismissedAt(Date.now());
  };
  if (!shouldNudge({ state, visits, dismissedAt, now }) && !hint) return null;
  return (
    <section className="card install-card" aria-labelledby="install-card-title">
      <span className="install-card__icon" aria-hidden="true">
        <InstallIcon size={22} />
      </span>
      <div className="install-card__body">
        <h2 id="install-card-title" className="install-card__title">
          Get the {productName} app
        </h2>
        <p className="install-card__text">Open it from your home screen, full screen, with notifications like any app.</p>
        <div className="install-card__actions">
          <button
            type="button"
            className="button button--primary button--sm"
            onClick={() => {
              if (state === 'ios') setHint(true);
              else void promptInstall();
            }}
          >
            Install
          </button>
          <button type="button" className="button button--ghost button--sm" onClick={dismiss}>
            Not now
          </button>
        </div>
      </div>
      <button type="button" className="icon-button install-card__close" aria-label="Dismiss install suggestion" onClick={dismiss}>
        <CloseIcon size={18} />
      </button>
      <InstallHint
        open={hint}
        productName={productName}
        onClose={() => {
          setHint(false);
          dismiss();
        }}
      />
    </section>
  );
}
