// The post card's parts that only a click opens — the comments, the create,
// edit, report and repost dialogs — are chunks of their own, out of the feed's first
// load (issue 16, first-load budget: ~4 KB of compressed JavaScript that a
// slow phone downloaded before it could show the first post). preloadPostParts
// fetches them once the feed is on the glass and the browser is idle, so the
// first click opens them at once; a click before that waits for its chunk.

import { lazyScreen } from '../../ui/lazyScreen';

export const LazyComments = lazyScreen(() => import('./Comments').then((m) => m.Comments));
export const LazyCreatePostDialog = lazyScreen(() => import('./CreatePostDialog').then((m) => m.CreatePostDialog));
export const LazyEditPostDialog = lazyScreen(() => import('./EditPostDialog').then((m) => m.EditPostDialog));
export const LazyReportDialog = lazyScreen(() => import('../safety/ReportDialog').then((m) => m.ReportDialog));
export const LazyRepostDialog = lazyScreen(() => import('./RepostDialog').then((m) => m.RepostDialog));

const IDLE_TIMEOUT_MS = 3000;

/**
 * Loads the parts' chunks when the browser is next idle (at most
 * IDLE_TIMEOUT_MS from now). Without requestIdleCallback nothing is
 * preloaded: each part loads at its first click.
 */
export function preloadPostParts(): void {
  preloadWhenIdle(LazyComments, LazyCreatePostDialog, LazyEditPostDialog, LazyReportDialog, LazyRepostDialog);
}

/** Loads these parts' chunks when the browser is next idle, as preloadPostParts does. */
export function preloadWhenIdle(...parts: { preload: () => Promise<void> }[]): void {
  if (typeof requestIdleCallback !== 'function') return;
  requestIdleCallback(
    () => {
      for (const part of parts) {
        // A failure here is retried by the click that needs the part.
        part.preload().catch(() => undefined);
      }
    },
    { timeout: IDLE_TIMEOUT_MS },
  );
}
