import { useEffect, useRef, type RefObject } from 'react';

/** The items a menu's keys move between: its menuitems that are not disabled. */
export function menuItems(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]')).filter(
    (el) => !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true',
  );
}

/**
 * Where a key moves the focus among n items from index i (-1: none yet), or
 * null for a key that is not a menu's: ↓/↑ step and wrap, Home/End jump.
 */
export function nextMenuIndex(key: string, i: number, n: number): number | null {
  if (n === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return i < 0 ? 0 : (i + 1) % n;
    case 'ArrowUp':
      return i < 0 ? n - 1 : (i - 1 + n) % n;
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    default:
      return null;
  }
}

/**
 * The keyboard of a menu button and its menu (the WAI-ARIA menu button
 * pattern), for a root element holding both: opening moves focus to the first
 * item; ↓ ↑ Home End move it (a roving tabindex: only the current item is in
 * the Tab order); Escape closes and gives focus back to the button; Tab
 * closes and lets focus move on. `close` closes the menu.
 */
export function useMenuKeys(rootRef: RefObject<HTMLElement | null>, open: boolean, close: () => void): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const close = () => closeRef.current();
    const root = rootRef.current;
    if (!open || !root) return;
    const trigger = root.querySelector<HTMLElement>('[aria-haspopup="menu"], [aria-haspopup="true"]');
    const rove = (to: HTMLElement) => {
      for (const el of menuItems(root)) el.tabIndex = el === to ? 0 : -1;
      to.focus();
    };
    // Open: the first item takes focus (unless focus already moved inside).
    const first = menuItems(root)[0];
    if (first && !root.querySelector('[role="menu"]')?.contains(document.activeElement)) rove(first);

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close();
        trigger?.focus();
        return;
      }
      if (e.key === 'Tab') {
        close();
        return;
      }
      if (!(e.target instanceof Node) || !root.contains(e.target)) return;
      const items = menuItems(root);
      const at = items.indexOf(document.activeElement as HTMLElement);
      // The arrows work from the button too (an open menu under it).
      const to = nextMenuIndex(e.key, at, items.length);
      if (to === null || (at < 0 && e.target !== trigger)) return;
      e.preventDefault();
      rove(items[to]!);
    };
    // Capture: before the document's other Escape handlers (useOutsideClick).
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [rootRef, open]);
}
