// Work the first screen does not need waits until that screen is on the
// glass (issue 16, first-load budget): the requests a mount starts — the
// user's fresh record, friend requests, suggestions, the socket — ran in the
// same task as the feed's first render and held back its paint. A hidden tab
// never paints, hence the timeout.

const AT_MOST_MS = 100;

/** Calls fn after the next paint (or AT_MOST_MS, whichever comes first); the returned function cancels it. */
export function afterPaint(fn: () => void): () => void {
  let done = false;
  let frame = 0;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
    fn();
  };
  const timer = setTimeout(run, AT_MOST_MS);
  // rAF runs before the paint; the task after it, after.
  if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(() => setTimeout(run, 0));
  return () => {
    done = true;
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
  };
}
