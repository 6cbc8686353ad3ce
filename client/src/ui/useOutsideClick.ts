import { useEffect, useRef, type RefObject } from 'react';

/**
 * Calls `onOutside` on a pointer press outside `ref`'s element or on Escape,
 * while `active` (menus and panels that close on an outside click, docs/product.md §2.9, §2.13).
 */
export function useOutsideClick<T extends HTMLElement>(ref: RefObject<T | null>, active: boolean, onOutside: () => void): void {
  const cb = useRef(onOutside);
  cb.current = onOutside;
  useEffect(() => {
    if (!active) return;
    const onDown = (e: Event) => {
      const el = ref.current;
      if (el && e.target instanceof Node && !el.contains(e.target)) cb.current();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') cb.current();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('touchstart', onDown, { passive: true });
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('touchstart', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [ref, active]);
}
