// Web Push on this device (issue 16): the browser's subscription, made with
// the server's VAPID key, is stored on the server per device; the service
// worker (src/sw/sw.ts) shows what arrives. Turning it off here removes the
// subscription from the browser and from the server.

import { apiGet, apiPost, request } from '../../api/http';

/** What the Settings toggle shows for this device. */
export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

export const MSG_PUSH_UNSUPPORTED = 'This browser does not support push notifications.';
export const MSG_PUSH_DENIED = 'Notifications are blocked for this site. Allow them in your browser’s site settings to turn this on.';
export const MSG_PUSH_DISMISSED = 'Push notifications stay off: the browser did not get permission to show notifications.';
export const MSG_PUSH_NO_WORKER = 'Push notifications need the app’s offline support, which is not running yet. Reload the page and try again.';
export const MSG_PUSH_NO_SERVICE = 'Couldn’t turn on push notifications: this browser has no push service available.';
export const MSG_PUSH_FAILED = 'Couldn’t change push notifications. Please try again.';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** An error whose message is ready for the user. */
export class PushError extends Error {}

async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) throw new PushError(MSG_PUSH_NO_WORKER);
  return navigator.serviceWorker.ready;
}

/** This device's state, as the browser knows it. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  return sub && Notification.permission === 'granted' ? 'on' : 'off';
}

/** base64url (as GET /api/push/key answers) to bytes. */
export function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(s.length / 4) * 4, '=');
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/** Asks for permission, subscribes with the server's key and stores the subscription. */
export async function enablePush(): Promise<void> {
  if (!pushSupported()) throw new PushError(MSG_PUSH_UNSUPPORTED);
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushError(MSG_PUSH_DENIED);
  if (permission !== 'granted') throw new PushError(MSG_PUSH_DISMISSED);
  const reg = await workerRegistration();
  const { publicKey } = await apiGet<{ publicKey: string }>('/push/key');
  const key = base64UrlToBytes(publicKey);
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    // Made with another server key (a reset secret): useless now.
    await sub.unsubscribe();
    sub = null;
  }
  if (!sub) {
    try {
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (err) {
      // Chromium without a push service (no GCM keys, headless) says AbortError.
      if (err instanceof DOMException && err.name === 'AbortError') throw new PushError(MSG_PUSH_NO_SERVICE);
      throw err;
    }
  }
  await apiPost('/push/subscriptions', sub.toJSON());
}

/** Removes this device's subscription from the server and the browser. */
/**
 * Removes this device's subscription from the server and the browser. The
 * browser's goes even when the server cannot be told: the device is off
 * either way, and the server drops the row at the push service's 410.
 */
export async function disablePush(): Promise<void> {
  if (!pushSupported()) return;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (!sub) return;
  try {
    await request('DELETE', '/push/subscriptions', { body: { endpoint: sub.endpoint } });
  } finally {
    await sub.unsubscribe();
  }
}
