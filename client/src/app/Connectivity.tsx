import { useEffect, useState, useSyncExternalStore } from 'react';
import { useOnline } from '../ui/connectivity';
import { applyUpdate, subscribeUpdate, updateReady } from './pwa';
import './Connectivity.css';

/** How long "Back online" stays after the connection returns. */
const BACK_ONLINE_MS = 4000;

/**
 * The offline banner and the update prompt, in one polite live region at
 * the top of every screen: "You're offline" while the browser has no
 * network (the app shell still works from the service worker's cache, and
 * what failed is retried when the network is back), "Back online" for a
 * moment after, and "A new version is available" with Reload after a deploy.
 */
export function Connectivity() {
  const online = useOnline();
  const update = useSyncExternalStore(subscribeUpdate, updateReady, () => false);
  const [wasOffline, setWasOffline] = useState(false);
  const [backOnline, setBackOnline] = useState(false);

  useEffect(() => {
    if (!online) {
      setWasOffline(true);
      setBackOnline(false);
      return;
    }
    if (!wasOffline) return;
    setWasOffline(false);
    setBackOnline(true);
    const t = setTimeout(() => setBackOnline(false), BACK_ONLINE_MS);
    return () => clearTimeout(t);
  }, [online, wasOffline]);

  return (
    <div className="connectivity" role="status" aria-live="polite">
      {!online && (
        <p className="connectivity__bar connectivity__bar--offline">
          <strong>You’re offline.</strong> Campus will reconnect and refresh when your connection is back.
        </p>
      )}
      {online && backOnline && <p className="connectivity__bar connectivity__bar--online">Back online.</p>}
      {online && update && (
        <p className="connectivity__bar connectivity__bar--update">
          A new version of Campus is available.
          <button type="button" className="button button--primary button--sm" onClick={applyUpdate}>
            Reload
          </button>
        </p>
      )}
    </div>
  );
}
