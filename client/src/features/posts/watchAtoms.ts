// Which posts are on screen, for the socket's watch/unwatch (docs/protocol.md §2.3).
// Counted, because the same post can be on screen twice (feed and a dialog).

import { atom } from 'jotai';

const watchCountsAtom = atom<Record<string, number>>({});

/** Ids of the posts on screen. */
export const watchedPostIdsAtom = atom((get) => Object.keys(get(watchCountsAtom)));

export const watchPostAtom = atom(null, (get, set, postId: string) => {
  const counts = get(watchCountsAtom);
  set(watchCountsAtom, { ...counts, [postId]: (counts[postId] ?? 0) + 1 });
});

export const unwatchPostAtom = atom(null, (get, set, postId: string) => {
  const counts = get(watchCountsAtom);
  const n = counts[postId];
  if (n === undefined) return;
  const next = { ...counts };
  if (n <= 1) delete next[postId];
  else next[postId] = n - 1;
  set(watchCountsAtom, next);
});
