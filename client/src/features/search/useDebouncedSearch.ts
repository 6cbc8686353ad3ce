import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { runSearchAtom, SEARCH_DEBOUNCE_MS, shouldSearch } from './searchAtoms';

/**
 * Searches for `query` once typing pauses for SEARCH_DEBOUNCE_MS, from 2
 * characters (docs/product.md §9). A newer query cancels the older call.
 */
export function useDebouncedSearch(query: string, delayMs: number = SEARCH_DEBOUNCE_MS): void {
  const run = useSetAtom(runSearchAtom);
  useEffect(() => {
    if (!shouldSearch(query)) return;
    const controller = new AbortController();
    const t = setTimeout(() => void run(query, controller.signal), delayMs);
    return () => {
      clearTimeout(t);
      controller.abort();
    };
  }, [query, delayMs, run]);
}
