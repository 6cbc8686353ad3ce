// Registers the service worker (src/sw/sw.ts, built to /sw.js) in production
// builds, and tells the page when a new deploy's worker is waiting: the page
// offers a reload (Connectivity), which lets the new worker take over and
// reloads once it has. Nothing reloads without the user asking.

type Listener = () => void;

let waiting: ServiceWorker | null = null;
const listeners = new Set<Listener>();

/** Subscribes to "an update is ready" (for useSyncExternalStore). */
export function subscribeUpdate(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether a new version waits to take over. */
export function updateReady(): boolean {
  return waiting !== null;
}

function setWaiting(w: ServiceWorker | null) {
  waiting = w;
  listeners.forEach((fn) => fn());
}

let reloadRequested = false;

/** Lets the waiting worker take over; the page reloads when it has. */
export function applyUpdate(): void {
  if (!waiting) return;
  reloadRequested = true;
  waiting.postMessage('skip-waiting');
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const sw = navigator.serviceWorker;
  sw.addEventListener('controllerchange', () => {
    // The first worker claiming the page changes the controller too: only
    // an update the user asked for reloads.
    if (reloadRequested) window.location.reload();
  });
  // After the load, so installing (it downloads the shell) never competes
  // with the first screen.
  const register = () => {
    sw.register('/sw.js')
      .then((reg) => {
        const check = () => {
          if (reg.waiting && sw.controller) setWaiting(reg.waiting);
        };
        check();
        reg.addEventListener('updatefound', () => {
          const w = reg.installing;
          w?.addEventListener('statechange', () => {
            if (w.state === 'installed') check();
          });
        });
        // A tab left open for days still learns of new deploys.
        setInterval(() => void reg.update().catch(() => {}), 60 * 60 * 1000);
      })
      .catch((err: unknown) => console.warn('Service worker registration failed', err));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
