// Where focus goes after signing in (issue 27 item 7): the login form is
// gone, and focus must not drop to the page's body. The shell, once its page
// has rendered, focuses the feed's composer or, on any other page, the
// page's main heading.

let pending = false;

/** Asks the next shell to focus its landing point (a sign-in just happened). */
export function requestLandingFocus(): void {
  pending = true;
}

/** Whether a landing focus is waiting; the first caller takes it. */
export function takeLandingFocus(): boolean {
  const was = pending;
  pending = false;
  return was;
}

/** What takes focus on landing, best first: the composer, the main heading. */
export const LANDING_TARGETS = ['#main .composer__prompt', '#main h1'] as const;

/** The element to focus under root, or null while the page has not rendered. */
export function landingTarget(root: ParentNode): HTMLElement | null {
  for (const sel of LANDING_TARGETS) {
    const el = root.querySelector<HTMLElement>(sel);
    if (el) return el;
  }
  return null;
}

/**
 * Focuses the landing target as soon as it is in the page (within
 * timeoutMs); a heading gets tabindex -1 so it can hold focus. Answers a stop
 * function.
 */
export function focusLandingWhenReady(doc: Document = document, timeoutMs = 5000): () => void {
  let done = false;
  const tryFocus = (): boolean => {
    const el = landingTarget(doc);
    if (!el) return false;
    if (el.tagName === 'H1' && !el.hasAttribute('tabindex')) el.tabIndex = -1;
    el.focus({ preventScroll: true });
    return true;
  };
  if (tryFocus()) return () => {};
  const observer = new MutationObserver(() => {
    if (!done && tryFocus()) stop();
  });
  const timer = setTimeout(() => stop(), timeoutMs);
  function stop() {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(doc.body, { childList: true, subtree: true });
  return stop;
}
