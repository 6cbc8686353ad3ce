// The home feed (spec §2.12): ids in server order with a keyset cursor; the
// posts themselves live in the shared posts store. Posts created in this
// session since the last refresh go on top (spec §4 Post dialog).

import { atom } from 'jotai';
import { FEED_PAGE_SIZE } from '../../constants';
import { fetchFeed } from '../posts/postsApi';
import { createdPostIdsAtom, existingIds, postsByIdReadAtom, upsertPostsAtom } from '../posts/postsAtoms';

export type FeedStatus = 'idle' | 'loading' | 'ready' | 'error';

const feedIdsAtom = atom<string[]>([]);
const cursorAtom = atom<string | null>(null);
const statusAtom = atom<FeedStatus>('idle');
const loadingMoreAtom = atom(false);
/** Created ids already covered by the last first-page load. */
const createdBaselineAtom = atom<ReadonlySet<string>>(new Set<string>());
/** Bumped by every first-page load, so an older answer cannot overwrite a newer one. */
const generationAtom = atom(0);

export const feedStatusAtom = atom((get) => get(statusAtom));
export const feedHasMoreAtom = atom((get) => get(cursorAtom) !== null);
export const feedLoadingMoreAtom = atom((get) => get(loadingMoreAtom));

/** What the feed shows, in order: new posts of this session, then the server's pages. */
export const feedPostIdsAtom = atom((get) => {
  const baseline = get(createdBaselineAtom);
  const fresh = get(createdPostIdsAtom).filter((id) => !baseline.has(id));
  return existingIds([...fresh, ...get(feedIdsAtom)], get(postsByIdReadAtom));
});

/** Loads (or reloads, for pull-to-refresh) the first page. Failures are silent (spec §8.5). */
export const loadFeedAtom = atom(null, async (get, set) => {
  const gen = get(generationAtom) + 1;
  set(generationAtom, gen);
  if (get(feedIdsAtom).length === 0) set(statusAtom, 'loading');
  const createdNow = new Set(get(createdPostIdsAtom));
  try {
    const page = await fetchFeed(null, FEED_PAGE_SIZE);
    if (get(generationAtom) !== gen) return;
    set(upsertPostsAtom, page.items);
    set(feedIdsAtom, page.items.map((p) => p.id));
    set(cursorAtom, page.nextCursor);
    set(createdBaselineAtom, createdNow);
    set(statusAtom, 'ready');
  } catch (err) {
    if (get(generationAtom) !== gen) return;
    console.error('Feed load failed', err);
    set(statusAtom, get(feedIdsAtom).length === 0 ? 'error' : 'ready');
  }
});

/** Infinite scroll: the next page after the cursor. */
export const loadMoreFeedAtom = atom(null, async (get, set) => {
  const cursor = get(cursorAtom);
  if (cursor === null || get(loadingMoreAtom) || get(statusAtom) !== 'ready') return;
  const gen = get(generationAtom);
  set(loadingMoreAtom, true);
  try {
    const page = await fetchFeed(cursor, FEED_PAGE_SIZE);
    if (get(generationAtom) !== gen) return;
    set(upsertPostsAtom, page.items);
    const have = new Set(get(feedIdsAtom));
    set(feedIdsAtom, [...get(feedIdsAtom), ...page.items.map((p) => p.id).filter((id) => !have.has(id))]);
    set(cursorAtom, page.nextCursor);
  } catch (err) {
    console.error('Loading more posts failed', err);
  } finally {
    set(loadingMoreAtom, false);
  }
});
