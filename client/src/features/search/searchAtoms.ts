// The search overlay (docs/product.md §2.9, §2.10): open or not, the query, the results.
// Searching waits for a pause in typing (SEARCH_DEBOUNCE_MS) and starts at
// 2 characters; an empty or blank query clears the results with no call.

import { atom } from 'jotai';
import { search, type SearchResult } from './searchApi';

/** docs/product.md §9: the overlay searches from 2 characters. */
export const SEARCH_MIN_CHARS = 2;
/** Our pause before a search goes out (the spec leaves it open). */
export const SEARCH_DEBOUNCE_MS = 250;

export type SearchStatus = 'idle' | 'searching' | 'done';

/** Whether the overlay searches for this text (docs/product.md §5, §9). */
export function shouldSearch(q: string): boolean {
  return q.trim().length >= SEARCH_MIN_CHARS;
}

const openBaseAtom = atom(false);
const queryBaseAtom = atom('');
const resultsBaseAtom = atom<SearchResult[]>([]);
const statusBaseAtom = atom<SearchStatus>('idle');
/** The query the shown results answer. */
const answeredBaseAtom = atom('');

export const searchOpenAtom = atom((get) => get(openBaseAtom));
export const searchQueryAtom = atom((get) => get(queryBaseAtom));
export const searchResultsAtom = atom((get) => get(resultsBaseAtom));
export const searchStatusAtom = atom((get) => get(statusBaseAtom));
export const searchAnsweredQueryAtom = atom((get) => get(answeredBaseAtom));

/** Opens or closes the overlay; closing forgets the query. */
export const setSearchOpenAtom = atom(null, (get, set, open: boolean) => {
  if (get(openBaseAtom) === open) return;
  set(openBaseAtom, open);
  if (!open) {
    set(queryBaseAtom, '');
    set(resultsBaseAtom, []);
    set(answeredBaseAtom, '');
    set(statusBaseAtom, 'idle');
  }
});

/** Typing: below 2 characters the results clear at once. */
export const setSearchQueryAtom = atom(null, (_get, set, q: string) => {
  set(queryBaseAtom, q);
  if (!shouldSearch(q)) {
    set(resultsBaseAtom, []);
    set(answeredBaseAtom, '');
    set(statusBaseAtom, 'idle');
  }
});

/** Runs the search for q (the component debounces). An answer for an older query is dropped. */
export const runSearchAtom = atom(null, async (get, set, q: string, signal?: AbortSignal) => {
  if (!shouldSearch(q)) return;
  set(statusBaseAtom, 'searching');
  let results: SearchResult[];
  try {
    results = await search(q, signal);
  } catch {
    return; // aborted: a newer search is on its way
  }
  if (get(queryBaseAtom) !== q) return;
  set(resultsBaseAtom, results);
  set(answeredBaseAtom, q.trim());
  set(statusBaseAtom, 'done');
});

/** Opens the overlay already searching for q (a #tag or @name in a post). */
export const openSearchWithAtom = atom(null, (get, set, q: string) => {
  if (!get(openBaseAtom)) set(openBaseAtom, true);
  set(setSearchQueryAtom, q);
});
