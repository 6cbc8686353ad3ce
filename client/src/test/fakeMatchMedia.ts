// A controllable window.matchMedia for tests: `setDark(true)` flips
// `(prefers-color-scheme: dark)` and fires 'change' on every live query list.

import { vi } from 'vitest';

export interface FakeMatchMedia {
  setDark(dark: boolean): void;
  /** Number of 'change' listeners currently attached. */
  listenerCount(): number;
}

export function installFakeMatchMedia(initialDark: boolean): FakeMatchMedia {
  let dark = initialDark;
  const listeners = new Set<(e: MediaQueryListEvent) => void>();

  const matchMedia = (query: string): MediaQueryList => {
    const isDarkQuery = query.replace(/\s+/g, '') === '(prefers-color-scheme:dark)';
    const mql = {
      media: query,
      get matches() {
        return isDarkQuery && dark;
      },
      onchange: null,
      addEventListener: (type: string, fn: (e: MediaQueryListEvent) => void) => {
        if (type === 'change' && isDarkQuery) listeners.add(fn);
      },
      removeEventListener: (type: string, fn: (e: MediaQueryListEvent) => void) => {
        if (type === 'change') listeners.delete(fn);
      },
      addListener: (fn: (e: MediaQueryListEvent) => void) => listeners.add(fn),
      removeListener: (fn: (e: MediaQueryListEvent) => void) => listeners.delete(fn),
      dispatchEvent: () => true,
    };
    return mql as unknown as MediaQueryList;
  };
  vi.stubGlobal('matchMedia', vi.fn(matchMedia));

  return {
    setDark(next: boolean) {
      dark = next;
      for (const fn of [...listeners]) {
        fn({ matches: next, media: '(prefers-color-scheme: dark)' } as MediaQueryListEvent);
      }
    },
    listenerCount: () => listeners.size,
  };
}
