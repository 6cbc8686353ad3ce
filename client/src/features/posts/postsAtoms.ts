// Posts, normalized by id, so every copy on screen (feed, post page, profile)
// shows the same counts: a like, a live count from the socket or a deletion
// updates them all at once (docs/product.md §4 Post like: "other copies update").
// Primitive atoms stay private; screens use the derived and action atoms.

import { atom, type Atom, type Getter, type Setter } from 'jotai';
import { deletePost, setBookmark, setLike, unrepost } from './postsApi';
import type { PostCounts } from '../../api/protocol';
import { normalizeMentions } from '../../api/models';
import { editedAtOf, normalizeImages, type Post } from './model';

const postsByIdAtom = atom<Record<string, Post>>({});
/** Posts created in this session, newest first; lists merge them in (docs/product.md §4 Post dialog). */
const createdIdsAtom = atom<string[]>([]);
/** Posts deleted in this session: a page fetched before the deletion must not bring them back. */
const deletedIdsAtom = atom<ReadonlySet<string>>(new Set<string>());
/** Like calls in flight, by post id. */
const likePendingBaseAtom = atom<ReadonlySet<string>>(new Set<string>());
/**
 * The newest counts that came (by frame or page) for a post while this
 * viewer's like call on it was in flight: the post keeps its optimistic like
 * count meanwhile, and the answer then takes whichever is newer.
 */
const heldCountsAtom = atom<Record<string, Counts>>({});

/** A post's counts and the version that orders them (see Post.countsVersion). */
type Counts = Pick<Post, 'likesCount' | 'commentsCount' | 'countsVersion'> & { repostsCount?: number };

/**
 * Whether counts of version v are older than the ones shown (cur). Counts
 * reach the client by several roads that do not keep commit order (a
 * like's answer, a post:counts frame built a moment before that like's
 * commit, a page fetched before it); an older copy never replaces a newer
 * one. A copy that does not say its version (undefined) orders nothing.
 */
function isStale(v: number | undefined, cur: number): boolean {
  return v !== undefined && v < cur;
}

function holdCounts(get: Getter, set: Setter, id: string, c: Counts): void {
  const held = get(heldCountsAtom);
  if (held[id] && isStale(c.countsVersion, held[id].countsVersion)) return;
  set(heldCountsAtom, { ...held, [id]: c });
}

export const postsByIdReadAtom = atom((get) => get(postsByIdAtom));
export const createdPostIdsAtom = atom((get) => get(createdIdsAtom));
export const likePendingAtom = atom((get) => get(likePendingBaseAtom));

const postAtomCache = new Map<string, Atom<Post | undefined>>();

/** The post with this id (undefined when unknown or deleted). */
export function postAtom(id: string): Atom<Post | undefined> {
  let a = postAtomCache.get(id);
  if (!a) {
    a = atom((get) => get(postsByIdAtom)[id]);
    postAtomCache.set(id, a);
  }
  return a;
}

/** Keeps ids that still exist, in order, without duplicates. */
export function existingIds(ids: readonly string[], byId: Record<string, Post>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ids) {
    if (byId[id] && !seen.has(id)) {
      seen.add(id);
      out.push(id);
    }
  }
  return out;
}

/**
 * Stores posts from the server. A post with a like in flight keeps its
 * optimistic state (the page's counts wait for the like's answer); a page
 * older than the counts shown (fetched before a like or a frame that came
 * first) keeps the counts and the like state shown.
 */
export const upsertPostsAtom = atom(null, (get, set, posts: readonly Post[]) => {
  if (posts.length === 0) return;
  const deleted = get(deletedIdsAtom);
  const pending = get(likePendingBaseAtom);
  const next = { ...get(postsByIdAtom) };
  // A repost entry's original is stored under its own id, so that every
  // card of it (its own, each repost of it) shows the same counts and flags.
  const all = posts.flatMap((p) => (p.repostOf ? [p.repostOf, p] : [p]));
  for (const p of all) {
    if (!p.id || deleted.has(p.id) || (p.repostOf && deleted.has(p.repostOf.id))) continue;
    const cur = next[p.id];
    const inFlight = cur !== undefined && pending.has(p.id);
    const stale = cur !== undefined && isStale(p.countsVersion, cur.countsVersion);
    if (inFlight) holdCounts(get, set, p.id, p);
    next[p.id] =
      cur && (inFlight || stale)
        ? {
            ...p,
            isLiked: cur.isLiked,
            likesCount: cur.likesCount,
            commentsCount: stale ? cur.commentsCount : p.commentsCount,
            repostsCount: stale ? cur.repostsCount : p.repostsCount,
            countsVersion: cur.countsVersion,
          }
        : p;
  }
  set(postsByIdAtom, next);
});

function patchPost(get: Getter, set: Setter, id: string, patch: Partial<Post>): void {
  const all = get(postsByIdAtom);
  const cur = all[id];
  if (!cur) return;
  set(postsByIdAtom, { ...all, [id]: { ...cur, ...patch } });
}

/**
 * A `post:counts` frame: every entry's counts change in one store update, the
 * viewer's own isLiked stays, and posts not loaded here are ignored. An
 * entry older than the counts shown is dropped (its frame was built before
 * a commit whose answer came first). While this viewer's like call on a post
 * is in flight its like count is held for the answer, so the optimistic
 * count does not jump back and forth.
 */
export const applyPostCountsAtom = atom(null, (get, set, entries: readonly PostCounts[]) => {
  const all = get(postsByIdAtom);
  const pending = get(likePendingBaseAtom);
  let next: typeof all | null = null;
  for (const e of entries) {
    const cur = (next ?? all)[e.postId];
    if (!cur || isStale(e.countsVersion, cur.countsVersion)) continue;
    const counts: Counts = {
      likesCount: Math.max(0, e.likesCount),
      commentsCount: Math.max(0, e.commentsCount),
      repostsCount: Math.max(0, e.repostsCount ?? cur.repostsCount),
      countsVersion: Math.max(cur.countsVersion, e.countsVersion ?? 0),
    };
    if (pending.has(e.postId)) {
      holdCounts(get, set, e.postId, counts);
      if (counts.commentsCount === cur.commentsCount && counts.repostsCount === cur.repostsCount) continue;
      next ??= { ...all };
      next[e.postId] = { ...cur, commentsCount: counts.commentsCount, repostsCount: counts.repostsCount ?? cur.repostsCount };
      continue;
    }
    if (
      counts.likesCount === cur.likesCount &&
      counts.commentsCount === cur.commentsCount &&
      counts.repostsCount === cur.repostsCount &&
      counts.countsVersion === cur.countsVersion
    ) {
      continue;
    }
    next ??= { ...all };
    next[e.postId] = { ...cur, ...counts };
  }
  if (next) set(postsByIdAtom, next);
});

/**
 * Sets a post's comment count: from the comments list after loading it, or
 * from this viewer's own add or delete, whose answer carries the counts
 * version (an answer older than the counts shown is dropped).
 */
export const applyCommentsCountAtom = atom(
  null,
  (get, set, e: { postId: string; commentsCount: number; countsVersion?: number }) => {
    const cur = get(postsByIdAtom)[e.postId];
    if (!cur || isStale(e.countsVersion, cur.countsVersion)) return;
    patchPost(get, set, e.postId, {
      commentsCount: Math.max(0, e.commentsCount),
      countsVersion: Math.max(cur.countsVersion, e.countsVersion ?? 0),
    });
  },
);

/** Adds n (may be negative) to a post's comment count after this viewer's own add or delete. */
export const bumpCommentsCountAtom = atom(null, (get, set, e: { postId: string; delta: number }) => {
  const cur = get(postsByIdAtom)[e.postId];
  if (cur) patchPost(get, set, e.postId, { commentsCount: Math.max(0, cur.commentsCount + e.delta) });
});

/**
 * Socket `post:edited`: the author changed a post; every copy on screen
 * shows the new text (and images, when the event carries them) with its
 * "edited" marker. Posts not loaded here are ignored; a repeat is harmless.
 */
export const applyPostEditedAtom = atom(
  null,
  (get, set, e: { postId: string; content: string; images?: unknown[]; updatedAt: string; mentions?: unknown[] }) => {
    const cur = get(postsByIdAtom)[e.postId];
    if (!cur) return;
    const patch: Partial<Post> = { content: e.content, editedAt: editedAtOf(cur.createdAt, e.updatedAt) || cur.editedAt };
    // The new text's mentions: an event without them names no one.
    patch.mentions = normalizeMentions(e.mentions);
    if (Array.isArray(e.images)) patch.images = normalizeImages(e.images);
    patchPost(get, set, e.postId, patch);
  },
);

/**
 * Drops a post everywhere (deleted here, or socket `post:deleted`), and the
 * repost entries that wrap it (deleting the original deletes its reposts).
 */
export const removePostAtom = atom(null, (get, set, postId: string) => {
  const deleted = new Set(get(deletedIdsAtom));
  deleted.add(postId);
  set(deletedIdsAtom, deleted);
  const all = get(postsByIdAtom);
  const gone = Object.values(all).filter((p) => p.id === postId || p.repostOf?.id === postId);
  if (gone.length > 0) {
    const next = { ...all };
    for (const p of gone) delete next[p.id];
    set(postsByIdAtom, next);
  }
  const created = get(createdIdsAtom);
  if (created.includes(postId)) set(createdIdsAtom, created.filter((id) => id !== postId));
});

/** docs/product.md §4 Post dialog: on success the post is prepended to the feed and the profile list. */
export const postCreatedAtom = atom(null, (get, set, post: Post) => {
  set(upsertPostsAtom, [post]);
  set(createdIdsAtom, [post.id, ...get(createdIdsAtom).filter((id) => id !== post.id)]);
});

/**
 * docs/product.md §4 Post like: optimistic toggle (flip the flag, count ±1), then adopt
 * the server's isLiked and likesCount; on failure revert. One call per post at
 * a time: clicks while one is in flight are ignored, so the last state shown
 * is always the one the server confirmed. Resolves to false on failure
 * (failures are silent in the screens, docs/product.md §8.5).
 */
export const toggleLikeAtom = atom(null, async (get, set, postId: string): Promise<boolean> => {
  const before = get(postsByIdAtom)[postId];
  if (!before || get(likePendingBaseAtom).has(postId)) return false;
  const liked = !before.isLiked;
  const delta = liked ? 1 : -1;
  set(likePendingBaseAtom, new Set(get(likePendingBaseAtom)).add(postId));
  patchPost(get, set, postId, { isLiked: liked, likesCount: Math.max(0, before.likesCount + delta) });
  // Ends the call: answers the counts held meanwhile, if any.
  const done = (): Counts | undefined => {
    const pending = new Set(get(likePendingBaseAtom));
    pending.delete(postId);
    set(likePendingBaseAtom, pending);
    const held = get(heldCountsAtom);
    const h = held[postId];
    if (h) {
      const rest = { ...held };
      delete rest[postId];
      set(heldCountsAtom, rest);
    }
    return h;
  };
  try {
    const result = await setLike(postId, liked);
    const held = done();
    const cur = get(postsByIdAtom)[postId];
    if (!cur) return true;
    // The answer's count, unless counts newer than it came meanwhile (they
    // hold this like too); then those, and the viewer's state from the answer.
    let counts: Partial<Counts> = { likesCount: Math.max(0, result.likesCount) };
    if (result.countsVersion !== undefined) counts.countsVersion = Math.max(cur.countsVersion, result.countsVersion);
    if (held && result.countsVersion !== undefined && held.countsVersion > result.countsVersion) counts = held;
    patchPost(get, set, postId, { isLiked: result.isLiked, ...counts });
    return true;
  } catch (err) {
    const held = done();
    const cur = get(postsByIdAtom)[postId];
    if (cur) {
      patchPost(get, set, postId, held ? { isLiked: before.isLiked, ...held } : { isLiked: before.isLiked, likesCount: Math.max(0, cur.likesCount - delta) });
    }
    console.error('Like failed', err);
    return false;
  }
});

/** Deletes on the server, then everywhere on screen. Rejects with the server's error. */
export const deletePostAtom = atom(null, async (_get, set, postId: string) => {
  await deletePost(postId);
  set(removePostAtom, postId);
});

/** Save calls in flight, by post id: clicks meanwhile are ignored. */
const savePendingAtom = atom<ReadonlySet<string>>(new Set<string>());

/**
 * Issue 27: saves or unsaves a post (private to the viewer), optimistic and
 * reverted on failure. Resolves to false on failure.
 */
export const toggleSaveAtom = atom(null, async (get, set, postId: string): Promise<boolean> => {
  const before = get(postsByIdAtom)[postId];
  if (!before || get(savePendingAtom).has(postId)) return false;
  const saved = !before.saved;
  set(savePendingAtom, new Set(get(savePendingAtom)).add(postId));
  patchPost(get, set, postId, { saved });
  const done = () => {
    const p = new Set(get(savePendingAtom));
    p.delete(postId);
    set(savePendingAtom, p);
  };
  try {
    const res = await setBookmark(postId, saved);
    done();
    patchPost(get, set, postId, { saved: res });
    return true;
  } catch (err) {
    done();
    patchPost(get, set, postId, { saved: before.saved });
    console.error('Save failed', err);
    return false;
  }
});

/** The repost count and the viewer's state from a repost call's answer, unless newer counts came. */
export const applyRepostAnswerAtom = atom(null, (get, set, r: { postId: string; reposted: boolean; repostsCount: number; countsVersion?: number }) => {
  const postId = r.postId;
  const cur = get(postsByIdAtom)[postId];
  if (!cur) return;
  if (isStale(r.countsVersion, cur.countsVersion)) {
    patchPost(get, set, postId, { reposted: r.reposted });
    return;
  }
  patchPost(get, set, postId, {
    reposted: r.reposted,
    repostsCount: Math.max(0, r.repostsCount),
    countsVersion: Math.max(cur.countsVersion, r.countsVersion ?? 0),
  });
});

/** Undoes the viewer's repost of a post: its entry leaves every list here. Rejects with the server's error. */
export const unrepostAtom = atom(null, async (get, set, e: { postId: string; meId: string }) => {
  const r = await unrepost(e.postId);
  set(applyRepostAnswerAtom, { ...r, postId: e.postId });
  const mine = Object.values(get(postsByIdAtom)).filter((p) => p.repostOf?.id === e.postId && p.author.id === e.meId);
  if (mine.length > 0) {
    const next = { ...get(postsByIdAtom) };
    for (const p of mine) delete next[p.id];
    set(postsByIdAtom, next);
  }
});
