// The service worker (issue 16, "installable"): built by Vite to /sw.js with
// the list of the build's files injected (vite.config.ts, precachePlugin).
//
// - The app shell — index.html and every hashed asset of this build — is
//   cached on install, so the app opens offline (the page shows its offline
//   banner and retries when the network is back).
// - Navigations go to the network first (a deploy is seen at once) and fall
//   back to the cached shell when offline or after NAVIGATION_TIMEOUT_MS.
// - /api, /media and /metrics are never touched: personal data is never
//   cached by the worker.
// - A new deploy installs a new worker that waits; the page offers a reload
//   (src/app/pwa.ts), which sends 'skip-waiting'. Until then the open page
//   keeps the shell it started with, lazy chunks included.
// - Web Push: shows the server's notification and opens its page on click.

/// <reference lib="webworker" />

declare const self: ServiceWorkerGlobalScope;

interface Precache {
  version: string;
  files: string[];
}

// Replaced at build time by the list of the build's files and its hash.
const PRECACHE: Precache = JSON.parse('__CAMPUS_PRECACHE__') as Precache;
const CACHE = `campus-shell-${PRECACHE.version}`;
const SHELL = '/index.html';
const PRECACHED = new Set(PRECACHE.files);
const NAVIGATION_TIMEOUT_MS = 5000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.files)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith('campus-shell-') && n !== CACHE).map((n) => caches.delete(n)));
      // The first worker takes the open page at once, so its later
      // navigations (a reload while offline) find the shell.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') void self.skipWaiting();
});

/** Paths the worker never answers: the API, uploads and metrics. */
function passThrough(url: URL): boolean {
  return url.pathname.startsWith('/api/') || url.pathname.startsWith('/media/') || url.pathname === '/metrics';
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || passThrough(url)) return;
  if (req.mode === 'navigate') {
    event.respondWith(navigate(req));
    return;
  }
  if (PRECACHED.has(url.pathname)) event.respondWith(cacheFirst(req, url.pathname));
});

async function navigate(req: Request): Promise<Response> {
  const network = fetch(req);
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), NAVIGATION_TIMEOUT_MS));
  try {
    const res = await Promise.race([network, timeout]);
    if (res) return res;
  } catch {
    // Offline: the shell below.
  }
  const shell = await caches.match(SHELL, { cacheName: CACHE });
  return shell ?? network;
}

async function cacheFirst(req: Request, path: string): Promise<Response> {
  const hit = await caches.match(path, { cacheName: CACHE });
  return hit ?? fetch(req);
}

/** What the server pushes (app.PushPayload). */
interface PushPayload {
  id?: string;
  /** 'message' for a conversation's (its id is the conversation's), else a notification's type. */
  type?: string;
  title?: string;
  body?: string;
  /** The page a click opens: a message's is /messages/{conversation id}. */
  url?: string;
}

/** Chromium's renotify (not in TypeScript's lib): a replacing notification alerts again. */
type ShowOptions = NotificationOptions & { renotify?: boolean };

self.addEventListener('push', (event) => {
  let p: PushPayload = {};
  try {
    p = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    // Not JSON: shown with the defaults.
  }
  const options: ShowOptions = {
    body: p.body || 'You have a new notification',
    tag: p.id,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: p.url && p.url.startsWith('/') ? p.url : '/' },
  };
  // A conversation's pushes share its id as their tag, so a newer one
  // replaces the one still shown: it should still ring, as a new message does.
  if (p.id && p.type === 'message') options.renotify = true;
  event.waitUntil(self.registration.showNotification(p.title || 'Campus', options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/';
  event.waitUntil(
    (async () => {
      const url = new URL(path, self.location.origin).href;
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = open.find((c) => new URL(c.url).origin === self.location.origin);
      if (tab) {
        try {
          await tab.focus();
          await tab.navigate(url); // only a controlled tab can be navigated
          return;
        } catch {
          // An uncontrolled tab: a new window instead.
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
