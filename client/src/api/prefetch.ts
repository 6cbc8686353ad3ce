// Early requests for the first screen (issue 16, first-load budget). The
// feed's first page used to be asked for only after the shell's chunk had
// downloaded and rendered — four round trips into the load on a phone. The
// bootstrap in index.html (api/boot.ts) now starts it with the document,
// main.tsx adopts that request (or, without it, starts one itself), and the
// feed's first load takes the answer instead of asking again.

import type { BootHandoff, EarlyFetch } from './boot';
import { apiGet, apiPost, getToken, parseEnvelope } from './http';
import { HTTP_TIMEOUT_MS } from '../constants';

export { feedFirstPagePath } from './boot';

/** A prefetched answer older than this is not used (the feed may have moved on). */
const MAX_AGE_MS = 15_000;

const pending = new Map<string, { at: number; take: () => Promise<unknown> }>();

/** Starts GET path (an API path, as apiGet takes it) unless it is already under way. */
export function prefetch(path: string): void {
  if (pending.has(path)) return;
  const promise = apiGet<unknown>(path);
  // Whoever takes it handles a failure; one nobody takes must not be an unhandled rejection.
  promise.catch(() => {});
  pending.set(path, { at: Date.now(), take: () => promise });
}

/** What the bootstrap and the painter left (read before adoptBootFetches takes it). */
export function bootHandoff(w: { __campusBoot?: BootHandoff } = window as { __campusBoot?: BootHandoff }): BootHandoff {
  return { ...w.__campusBoot };
}

/**
 * Asks the server for the first-page cookie of the session's token, so the
 * next document of the feed carries its first page (issue 27). Best effort:
 * without it the feed loads as before.
 */
export function keepFirstPageCookie(): void {
  apiPost<unknown>('/auth/first-page').catch(() => {});
}

/**
 * Takes over the requests the bootstrap started (window.__campusBoot), once.
 * Its answer has not been through request()'s rules (401, 503 retries), so
 * only a success for the token the app still holds is used: anything else —
 * an error status, no answer within the usual timeout, a token changed
 * meanwhile — asks again the normal way, which applies them.
 */
export function adoptBootFetches(w: { __campusBoot?: BootHandoff } = window as { __campusBoot?: BootHandoff }): void {
  const feed = w.__campusBoot?.feed;
  w.__campusBoot = undefined;
  if (!feed || pending.has(feed.path)) return;
  pending.set(feed.path, { at: feed.at, take: () => early(feed).catch(() => apiGet<unknown>(feed.path)) });
}

async function early(f: EarlyFetch): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, f.at + HTTP_TIMEOUT_MS - Date.now()));
  });
  const a = await Promise.race([f.answer, timeout]).finally(() => clearTimeout(timer));
  if (a === null || a.status < 200 || a.status >= 300 || getToken() !== f.token) throw new Error('early answer not usable');
  return parseEnvelope<unknown>(a.status, a.text, a.retryAfter);
}

/** The prefetched answer of GET path, once: later calls ask the server. */
export function takePrefetched(path: string): Promise<unknown> | undefined {
  const p = pending.get(path);
  pending.delete(path);
  if (!p || Date.now() - p.at > MAX_AGE_MS) return undefined;
  return p.take();
}
