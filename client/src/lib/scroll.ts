/**
 * Scrolls the window to the top on a page change. A failure to scroll
 * (jsdom's scrollTo throws) must never break the navigation that asked.
 */
export function scrollToTop(): void {
  if (typeof window === 'undefined' || typeof window.scrollTo !== 'function') return;
  try {
    window.scrollTo(0, 0);
  } catch {
    // nothing to scroll in this environment
  }
}
