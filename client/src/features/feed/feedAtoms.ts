// The home feed (docs/product.md §2.12): ids in server order with a keyset cursor; the
// posts themselves live in the shared posts store. Posts created in this
// session since the last refresh go on top (docs/product.md §4 Post dialog). Posts
// announced live (`post:new`, issue 16) wait behind the "N new posts" pill
// until the reader asks for them.

import { atom } from 'jotai';
import { isNoAnswer } from '../../api/http';
import { FEED_PAGE_SIZE } from '../../constants';
import { readOffline, saveOffline, signedInUserId } from '../../lib/offlineCache';
import { fetchFeed, fetchPost } from '../posts/postsApi';
import type { Post } from '../posts/model';
import { createdPostIdsAtom, existingIds, postsByIdReadAtom, upsertPostsAtom } from '../posts/postsAtoms';

/** 'offline': no server answered, and the feed shows what was last read (offlineSavedAtAtom). */
export type FeedStatus = 'idle' | 'loading' | 'ready' | 'error' | 'offline';

const feedIdsAtom = atom<string[]>([]);
const cursorAtom = atom<string | null>(null);
const statusAtom = atom<FeedStatus>('idle');
const loadingMoreAtom = atom(false);
/** Created ids already covered by the last first-page load. */
const createdBaselineAtom = atom<ReadonlySet<string>>(new Set<string>());
/** Bumped by every first-page load, so an older answer cannot overwrite a newer one. */
const generationAtom = atom(0);
/** Posts announced by `post:new` since they were last shown, newest first. */
const announcedIdsAtom = atom<string[]>([]);

/** Most announced posts remembered (and fetched by one press of the pill). */
export const MAX_NEW_POSTS = 50;

/** When the posts shown offline were read (ISO), or '' when they are live. */
const offlineSavedAtBaseAtom = atom('');

export const feedStatusAtom = atom((get) => get(statusAtom));
export const feedOfflineSavedAtAtom = atom((get) => get(offlineSavedAtBaseAtom));
export const feedHasMoreAtom = atom((get) => get(cursorAtom) !== null);
export const feedLoadingMoreAtom = atom((get) => get(loadingMoreAtom));

/** What the feed shows, in order: new posts of this session, then the server's pages. */
export const feedPostIdsAtom = atom((get) => {
  const baseline = get(createdBaselineAtom);
  const fresh = get(createdPostIdsAtom).filter((id) => !baseline.has(id));
  return existingIds([...fresh, ...get(feedIdsAtom)], get(postsByIdReadAtom));
});

/** Loads (or reloads, for pull-to-refresh) the first page. Failures are silent (docs/product.md §8.5). */
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
    set(offlineSavedAtBaseAtom, '');
    set(statusAtom, 'ready');
    // Kept for reading offline: the first page, as read.
    saveOffline(signedInUserId(), 'feed', page.items);
  } catch (err) {
    if (get(generationAtom) !== gen) return;
    console.error('Feed load failed', err);
    if (get(feedIdsAtom).length > 0) {
      // Posts on screen stay; shown offline, they stay marked as what was last read.
      if (get(statusAtom) !== 'offline') set(statusAtom, 'ready');
      return;
    }
    const kept = isNoAnswer(err) ? readOffline<Post[]>(signedInUserId(), 'feed') : null;
    if (kept && Array.isArray(kept.data) && kept.data.length > 0) {
      set(upsertPostsAtom, kept.data);
      set(feedIdsAtom, kept.data.map((p) => p.id));
      set(cursorAtom, null); // no more pages until the network is back
      set(createdBaselineAtom, createdNow);
      set(offlineSavedAtBaseAtom, kept.savedAt);
      set(statusAtom, 'offline');
      return;
    }
    set(statusAtom, isNoAnswer(err) ? 'offline' : 'error');
  }
});

/** Set by primeFeedAtom until the feed mounts: that mount uses the load under way. */
const primedAtom = atom(false);

/**
 * Loads the first page before the feed first mounts (app/Shell's
 * prepareShell, issue 16): the shell's first render then has the posts, not
 * skeletons and a render more once they come.
 */
export const primeFeedAtom = atom(null, (_get, set) => {
  set(primedAtom, true);
  return set(loadFeedAtom);
});

/** The feed's mount: loads the first page, unless primeFeedAtom has just started that. */
export const loadFeedOnMountAtom = atom(null, (get, set) => {
  if (get(primedAtom)) {
    set(primedAtom, false);
    return Promise.resolve();
  }
  return set(loadFeedAtom);
});

/** Infinite scroll: the next page after the cursor. */
export const loadMoreFeedAtom = atom(null, async (get, set) => {
  const cursor = get(cursorAtom);
  if (cursor === null || get(loadingMoreAtom) || get(statusAtom) !== 'ready') return; // not offline
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

/** Announced posts the feed does not show yet: the pill's count. */
export const newPostIdsAtom = atom((get) => {
  const shown = new Set([...get(feedIdsAtom), ...get(createdPostIdsAtom)]);
  return get(announcedIdsAtom).filter((id) => !shown.has(id));
});

/** The pill's text: "1 new post", "3 new posts". */
export function newPostsLabel(n: number): string {
  return `${n} new ${n === 1 ? 'post' : 'posts'}`;
}

/** Live `post:new`: remembered for the pill (a post shown already is ignored by the count). */
export const postAnnouncedAtom = atom(null, (get, set, postId: string) => {
  const ids = get(announcedIdsAtom);
  if (!postId || ids.includes(postId)) return;
  set(announcedIdsAtom, [postId, ...ids].slice(0, MAX_NEW_POSTS));
});

/**
 * Fetches the announced posts, newest first. One that is gone (deleted, or
 * hidden by a block meanwhile) is forgotten. The feed does not change yet:
 * the screen inserts them with insertNewPostsAtom once it has measured
 * where the reader is.
 */
export const fetchNewPostsAtom = atom(null, async (get, set): Promise<Post[]> => {
  const ids = get(newPostIdsAtom);
  const found = await Promise.all(
    ids.map((id) =>
      fetchPost(id).then(
        (r) => r.post,
        () => null,
      ),
    ),
  );
  const missing = new Set(ids.filter((_, i) => found[i] === null));
  if (missing.size > 0) set(announcedIdsAtom, get(announcedIdsAtom).filter((id) => !missing.has(id)));
  return found.filter((p): p is Post => p !== null).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
});

/** Puts fetched new posts on top of the feed, in one store update, and clears them from the pill. */
export const insertNewPostsAtom = atom(null, (get, set, posts: readonly Post[]) => {
  if (posts.length === 0) return;
  set(upsertPostsAtom, posts);
  const have = new Set(get(feedIdsAtom));
  const fresh = posts.map((p) => p.id).filter((id) => !have.has(id));
  set(feedIdsAtom, [...fresh, ...get(feedIdsAtom)]);
  const done = new Set(posts.map((p) => p.id));
  set(announcedIdsAtom, get(announcedIdsAtom).filter((id) => !done.has(id)));
});
