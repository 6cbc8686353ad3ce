// What is trending, shared by the feed's card and the search overlay: read
// once and kept for TRENDING_FRESH_MS (the server recomputes it at most once
// a minute), its posts in the posts store so their counts move live.

import { atom } from 'jotai';
import { upsertPostsAtom } from '../posts/postsAtoms';
import { fetchTrending, type TrendingTag } from './tagsApi';

/** How long a read of trending is shown before it is read again. */
export const TRENDING_FRESH_MS = 60_000;

export type TrendingStatus = 'idle' | 'loading' | 'ready' | 'error';

interface TrendingState {
  status: TrendingStatus;
  tags: TrendingTag[];
  postIds: string[];
  at: number;
}

const stateAtom = atom<TrendingState>({ status: 'idle', tags: [], postIds: [], at: 0 });
/** The read on its way, which a second caller joins. */
const inFlightAtom = atom<Promise<void> | null>(null);

export const trendingAtom = atom((get) => get(stateAtom));

/** Reads trending unless a fresh read is there or one is on its way. Failures keep what was shown. */
export const loadTrendingAtom = atom(null, (get, set, now: number = Date.now()): Promise<void> => {
  const s = get(stateAtom);
  if (s.status === 'ready' && now - s.at < TRENDING_FRESH_MS) return Promise.resolve();
  const running = get(inFlightAtom);
  if (running) return running;
  if (s.status !== 'ready') set(stateAtom, { ...s, status: 'loading' });
  const read = fetchTrending()
    .then(
      (t) => {
        set(upsertPostsAtom, t.posts);
        set(stateAtom, { status: 'ready', tags: t.tags, postIds: t.posts.map((p) => p.id), at: now });
      },
      (err: unknown) => {
        console.warn('Trending failed', err); // silent, as the feed's other side cards
        const cur = get(stateAtom);
        if (cur.status !== 'ready') set(stateAtom, { ...cur, status: 'error' });
      },
    )
    .finally(() => set(inFlightAtom, null));
  set(inFlightAtom, read);
  return read;
});
