import { useEffect, useRef, useSyncExternalStore } from 'react';

function subscribeOnline(fn: () => void): () => void {
  window.addEventListener('online', fn);
  window.addEventListener('offline', fn);
  return () => {
    window.removeEventListener('online', fn);
    window.removeEventListener('offline', fn);
  };
}

/** Whether the browser has a network connection (navigator.onLine, live). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/** Calls fn each time the connection comes back (the latest fn: no stale closures). */
export function useRetryWhenOnline(fn: () => void): void {
  const ref = useRef(fn);
  useEffect(() => {
    ref.current = fn;
  });
  useEffect(() => {
    const onOnline = () => ref.current();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, []);
}

/** How often a screen that could not load tries again while the browser says it is online. */
export const RECOVER_EVERY_MS = 15_000;

/**
 * A screen that could not load (offline, or no server answered) recovers by
 * itself: fn runs when the connection comes back (the online event) and,
 * while `failing` and the browser thinks it is online (a server that was
 * down, a captive portal), every RECOVER_EVERY_MS.
 */
export function useRecover(failing: boolean, fn: () => void, everyMs: number = RECOVER_EVERY_MS): void {
  const ref = useRef(fn);
  useEffect(() => {
    ref.current = fn;
  });
  useEffect(() => {
    if (!failing) return;
    const onOnline = () => ref.current();
    window.addEventListener('online', onOnline);
    const t = setInterval(() => {
      if (navigator.onLine !== false) ref.current();
    }, everyMs);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(t);
    };
  }, [failing, everyMs]);
}
