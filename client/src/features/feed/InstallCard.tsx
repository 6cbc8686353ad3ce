import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { productNameAtom } from '../../api/config';
import { promptInstall, type InstallState } from '../../lib/install';
import { CloseIcon, InstallIcon } from '../../ui/icons';
import { InstallHint } from '../../ui/InstallHint';

/**
 * The feed's install card (issue 27 item 6), shown when useInstallNudge says
 * so: after a few visits, on a browser that can install (its prompt kept, or
 * iOS Safari's "Add to Home Screen"), a quiet card offers it; "Not now" or ×
 * puts it away for weeks. Loaded only when shown (FeedPage).
 */
export interface InstallCardProps {
  state: InstallState;
  onDismiss: () => void;
}

export function InstallCard({ state, onDismiss }: InstallCardProps) {
  const productName = useAtomValue(productNameAtom);
  const [hint, setHint] = useState(false);
  const dismiss = onDismiss;
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
