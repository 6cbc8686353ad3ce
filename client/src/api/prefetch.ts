// Early requests for the first screen (issue 16, first-load budget). The
// feed's first page used to be asked for only after the shell's chunk had
// downloaded and rendered — four round trips into the load on a phone. The
// main chunk now starts it at once (main.tsx), in parallel with the shell's
// chunk, and the feed's first load takes the answer instead of asking again.

import { apiGet } from './http';

/** A prefetched answer older than this is not used (the feed may have moved on). */
const MAX_AGE_MS = 15_000;

const pending = new Map<string, { at: number; promise: Promise<unknown> }>();

/** Starts GET path (an API path, as apiGet takes it) unless it is already under way. */
export function prefetch(path: string): void {
  if (pending.has(path)) return;
  const promise = apiGet<unknown>(path);
  // Whoever takes it handles a failure; one nobody takes must not be an unhandled rejection.
  promise.catch(() => {});
  pending.set(path, { at: Date.now(), promise });
}

/** The prefetched answer of GET path, once: later calls ask the server. */
export function takePrefetched(path: string): Promise<unknown> | undefined {
  const p = pending.get(path);
  pending.delete(path);
  if (!p || Date.now() - p.at > MAX_AGE_MS) return undefined;
  return p.promise;
}

/** The path of the feed's first page, as the feed asks for it. */
export function feedFirstPagePath(limit: number): string {
  return `/posts/feed?limit=${limit}`;
}
