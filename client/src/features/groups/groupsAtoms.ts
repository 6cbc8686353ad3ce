// Groups in the jotai store (issue 18): groups by handle, so the directory,
// the group page and the big screen show the same membership and counts; the
// directory's search, my groups and suggestions as lists of handles; each
// group's feed as post ids (the posts live in the shared posts store, where
// live counts land). Primitive atoms stay private; screens use the derived
// and action atoms.

import { atom, type Atom, type Getter, type Setter } from 'jotai';
import { isApiError } from '../../api/http';
import { FEED_PAGE_SIZE } from '../../constants';
import { createdPostIdsAtom, existingIds, postsByIdReadAtom, upsertPostsAtom } from '../posts/postsAtoms';
import {
  cancelJoinRequest,
  createGroup,
  declineInvitation,
  deleteGroup,
  fetchGroup,
  fetchGroupPosts,
  fetchGroupSuggestions,
  fetchLive,
  fetchMyGroups,
  joinGroup,
  leaveGroup,
  pinPost,
  searchGroups,
  setFollowClosely,
  setGroupChat,
  updateGroup,
  uploadGroupImage,
} from './groupsApi';
import type { Group } from './model';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error' | 'notfound';

// --- groups by handle --------------------------------------------------------

const groupsByHandleAtom = atom<Record<string, Group>>({});
const groupStatusAtom = atom<Record<string, LoadStatus>>({});

const groupAtomCache = new Map<string, Atom<Group | undefined>>();

/** The group with this handle, once loaded. */
export function groupAtom(handle: string): Atom<Group | undefined> {
  let a = groupAtomCache.get(handle);
  if (!a) {
    a = atom((get) => get(groupsByHandleAtom)[handle]);
    groupAtomCache.set(handle, a);
  }
  return a;
}

const statusAtomCache = new Map<string, Atom<LoadStatus>>();

/** How loading the group went: 'notfound' is the server's 404 (a secret group to a non-member, or none). */
export function groupStatusOf(handle: string): Atom<LoadStatus> {
  let a = statusAtomCache.get(handle);
  if (!a) {
    a = atom((get) => get(groupStatusAtom)[handle] ?? 'idle');
    statusAtomCache.set(handle, a);
  }
  return a;
}

export const upsertGroupsAtom = atom(null, (get, set, groups: readonly Group[]) => {
  if (groups.length === 0) return;
  const next = { ...get(groupsByHandleAtom) };
  for (const g of groups) next[g.handle] = g;
  set(groupsByHandleAtom, next);
});

function setStatus(get: Getter, set: Setter, handle: string, s: LoadStatus): void {
  set(groupStatusAtom, { ...get(groupStatusAtom), [handle]: s });
}

/** Loads (or reloads) one group. Never rejects: the status says how it went. */
export const loadGroupAtom = atom(null, async (get, set, handle: string) => {
  if (!get(groupsByHandleAtom)[handle]) setStatus(get, set, handle, 'loading');
  try {
    const g = await fetchGroup(handle);
    set(upsertGroupsAtom, [g]);
    setStatus(get, set, handle, 'ready');
  } catch (err) {
    if (isApiError(err) && (err.status === 404 || err.status === 403)) {
      const next = { ...get(groupsByHandleAtom) };
      delete next[handle];
      set(groupsByHandleAtom, next);
      setStatus(get, set, handle, 'notfound');
      return;
    }
    console.error('Group load failed', err);
    setStatus(get, set, handle, get(groupsByHandleAtom)[handle] ? 'ready' : 'error');
  }
});

// --- directory: search, mine, suggestions ------------------------------------

const directoryBaseAtom = atom<{ q: string; handles: string[]; cursor: string | null; status: LoadStatus }>({
  q: '',
  handles: [],
  cursor: null,
  status: 'idle',
});
const directoryGenAtom = atom(0);
const myHandlesBaseAtom = atom<string[] | null>(null);
const suggestionsBaseAtom = atom<{ handle: string; reason: string }[] | null>(null);

function groupsOf(get: Getter, handles: readonly string[]): Group[] {
  const all = get(groupsByHandleAtom);
  return handles.map((h) => all[h]).filter((g): g is Group => g !== undefined);
}

export const directoryAtom = atom((get) => {
  const d = get(directoryBaseAtom);
  return { q: d.q, groups: groupsOf(get, d.handles), hasMore: d.cursor !== null, status: d.status };
});

/** My groups (null until loaded); a group I left drops out at once. */
export const myGroupsAtom = atom((get) => {
  const handles = get(myHandlesBaseAtom);
  return handles === null ? null : groupsOf(get, handles).filter((g) => g.me.status === 'member');
});

/** Suggested groups with the reason (null until loaded); ones I joined drop out. */
export const groupSuggestionsAtom = atom((get) => {
  const list = get(suggestionsBaseAtom);
  if (list === null) return null;
  const all = get(groupsByHandleAtom);
  return list
    .map((s) => ({ group: all[s.handle], reason: s.reason }))
    .filter((s): s is { group: Group; reason: string } => s.group !== undefined && s.group.me.status !== 'member');
});

/** Searches the directory (q '' lists every group I may see); `more` appends the next page. */
export const searchDirectoryAtom = atom(null, async (get, set, arg: { q: string; more?: boolean }) => {
  const cur = get(directoryBaseAtom);
  if (arg.more && (cur.cursor === null || cur.q !== arg.q)) return;
  const gen = get(directoryGenAtom) + 1;
  set(directoryGenAtom, gen);
  set(directoryBaseAtom, { ...cur, q: arg.q, status: 'loading', ...(arg.more ? {} : { handles: cur.q === arg.q ? cur.handles : [] }) });
  try {
    const page = await searchGroups(arg.q, arg.more ? cur.cursor : null);
    if (get(directoryGenAtom) !== gen) return;
    set(upsertGroupsAtom, page.items);
    const handles = page.items.map((g) => g.handle);
    const before = arg.more ? get(directoryBaseAtom).handles : [];
    set(directoryBaseAtom, {
      q: arg.q,
      handles: [...before, ...handles.filter((h) => !before.includes(h))],
      cursor: page.nextCursor,
      status: 'ready',
    });
  } catch (err) {
    if (get(directoryGenAtom) !== gen) return;
    console.error('Group search failed', err);
    set(directoryBaseAtom, { ...get(directoryBaseAtom), status: 'error' });
  }
});

export const loadMyGroupsAtom = atom(null, async (_get, set) => {
  try {
    const groups = await fetchMyGroups();
    set(upsertGroupsAtom, groups);
    set(myHandlesBaseAtom, groups.map((g) => g.handle));
  } catch (err) {
    console.error('My groups failed', err);
    set(myHandlesBaseAtom, (cur) => cur ?? []);
  }
});

export const loadGroupSuggestionsAtom = atom(null, async (_get, set) => {
  try {
    const list = await fetchGroupSuggestions();
    set(upsertGroupsAtom, list.map((s) => s.group));
    set(suggestionsBaseAtom, list.map((s) => ({ handle: s.group.handle, reason: s.reason })));
  } catch (err) {
    console.error('Group suggestions failed', err);
    set(suggestionsBaseAtom, (cur) => cur ?? []);
  }
});

// --- create, edit, membership ------------------------------------------------

/** Creates a group; I am its owner. Rejects with the server's error (field errors included). */
export const createGroupAtom = atom(null, async (get, set, body: Record<string, unknown>): Promise<Group> => {
  const g = await createGroup(body);
  set(upsertGroupsAtom, [g]);
  setStatus(get, set, g.handle, 'ready');
  const mine = get(myHandlesBaseAtom);
  if (mine !== null) set(myHandlesBaseAtom, [g.handle, ...mine.filter((h) => h !== g.handle)]);
  return g;
});

export const updateGroupAtom = atom(null, async (_get, set, arg: { handle: string; body: Record<string, unknown> }): Promise<Group> => {
  const g = await updateGroup(arg.handle, arg.body);
  set(upsertGroupsAtom, [g]);
  return g;
});

export const uploadGroupImageAtom = atom(
  null,
  async (_get, set, arg: { handle: string; which: 'avatar' | 'cover'; file: File; onProgress?: (p: number) => void }) => {
    const g = await uploadGroupImage(arg.handle, arg.which, arg.file, arg.onProgress);
    set(upsertGroupsAtom, [g]);
    return g;
  },
);

export const deleteGroupAtom = atom(null, async (get, set, handle: string) => {
  await deleteGroup(handle);
  const next = { ...get(groupsByHandleAtom) };
  delete next[handle];
  set(groupsByHandleAtom, next);
  setStatus(get, set, handle, 'notfound');
  const mine = get(myHandlesBaseAtom);
  if (mine !== null) set(myHandlesBaseAtom, mine.filter((h) => h !== handle));
});

/** Runs a membership call, then adopts the group it answers (or re-reads it) and refreshes my groups. */
async function membership(get: Getter, set: Setter, handle: string, call: () => Promise<Group | null>): Promise<void> {
  const answered = await call();
  if (answered) set(upsertGroupsAtom, [answered]);
  else await set(loadGroupAtom, handle);
  const g = get(groupsByHandleAtom)[handle];
  const mine = get(myHandlesBaseAtom);
  if (g && mine !== null) {
    const has = mine.includes(handle);
    if (g.me.status === 'member' && !has) set(myHandlesBaseAtom, [handle, ...mine]);
    if (g.me.status !== 'member' && has) set(myHandlesBaseAtom, mine.filter((h) => h !== handle));
  }
  // What I may read changed: the group's feed starts over.
  set(resetGroupFeedAtom, handle);
}

export const joinGroupAtom = atom(null, (get, set, handle: string) => membership(get, set, handle, () => joinGroup(handle)));
export const leaveGroupAtom = atom(null, (get, set, handle: string) => membership(get, set, handle, () => leaveGroup(handle)));
export const cancelJoinRequestAtom = atom(null, (get, set, handle: string) =>
  membership(get, set, handle, () => cancelJoinRequest(handle)),
);
export const declineInvitationAtom = atom(null, (get, set, handle: string) =>
  membership(get, set, handle, () => declineInvitation(handle)),
);

function patchGroup(get: Getter, set: Setter, handle: string, patch: (g: Group) => Group): Group | undefined {
  const g = get(groupsByHandleAtom)[handle];
  if (g) set(groupsByHandleAtom, { ...get(groupsByHandleAtom), [handle]: patch(g) });
  return g;
}

/** Follow closely (notify me of every post): optimistic, reverted on failure (then rejects). */
export const setFollowCloselyAtom = atom(null, async (get, set, arg: { handle: string; closely: boolean }) => {
  const before = patchGroup(get, set, arg.handle, (g) => ({ ...g, me: { ...g.me, followClosely: arg.closely } }));
  try {
    await setFollowClosely(arg.handle, arg.closely);
  } catch (err) {
    if (before) patchGroup(get, set, arg.handle, (g) => ({ ...g, me: { ...g.me, followClosely: before.me.followClosely } }));
    throw err;
  }
});

/** Switches the group's chat on or off (its admins); the group comes back with its chat's id. */
export const setGroupChatAtom = atom(null, async (_get, set, arg: { handle: string; enabled: boolean }): Promise<Group> => {
  const g = await setGroupChat(arg.handle, arg.enabled);
  set(upsertGroupsAtom, [g]);
  return g;
});

/** Pins a post of the group (null unpins); the big screen shows it on top. */
export const pinPostAtom = atom(null, async (get, set, arg: { handle: string; postId: string | null }) => {
  await pinPost(arg.handle, arg.postId);
  patchGroup(get, set, arg.handle, (g) => ({ ...g, pinnedPostId: arg.postId }));
});

// --- a group's feed ------------------------------------------------------------

interface FeedState {
  ids: string[];
  cursor: string | null;
  status: LoadStatus;
  loadingMore: boolean;
  /** Posts created here before the last first-page load (already in `ids`). */
  baseline: ReadonlySet<string>;
  gen: number;
}

const EMPTY_FEED: FeedState = { ids: [], cursor: null, status: 'idle', loadingMore: false, baseline: new Set(), gen: 0 };
const feedsAtom = atom<Record<string, FeedState>>({});

function feedOf(get: Getter, handle: string): FeedState {
  return get(feedsAtom)[handle] ?? EMPTY_FEED;
}

function setFeed(get: Getter, set: Setter, handle: string, patch: Partial<FeedState>): void {
  set(feedsAtom, { ...get(feedsAtom), [handle]: { ...feedOf(get, handle), ...patch } });
}

const feedAtomCache = new Map<string, Atom<{ ids: string[]; status: LoadStatus; hasMore: boolean; loadingMore: boolean }>>();

/** The group's feed as shown: posts created here this session on top, then the server's pages. */
export function groupFeedAtom(handle: string) {
  let a = feedAtomCache.get(handle);
  if (!a) {
    a = atom((get) => {
      const f = feedOf(get, handle);
      const byId = get(postsByIdReadAtom);
      const fresh = get(createdPostIdsAtom).filter((id) => !f.baseline.has(id) && byId[id]?.group?.handle === handle);
      return { ids: existingIds([...fresh, ...f.ids], byId), status: f.status, hasMore: f.cursor !== null, loadingMore: f.loadingMore };
    });
    feedAtomCache.set(handle, a);
  }
  return a;
}

const resetGroupFeedAtom = atom(null, (get, set, handle: string) => {
  if (!get(feedsAtom)[handle]) return;
  set(feedsAtom, { ...get(feedsAtom), [handle]: { ...EMPTY_FEED, gen: feedOf(get, handle).gen + 1 } });
});

/** Loads (or reloads) the first page of a group's feed. Failures show as status 'error'. */
export const loadGroupFeedAtom = atom(null, async (get, set, handle: string) => {
  const gen = feedOf(get, handle).gen + 1;
  const createdNow = new Set(get(createdPostIdsAtom));
  setFeed(get, set, handle, { gen, status: feedOf(get, handle).ids.length === 0 ? 'loading' : 'ready' });
  try {
    const page = await fetchGroupPosts(handle, null, FEED_PAGE_SIZE);
    if (feedOf(get, handle).gen !== gen) return;
    set(upsertPostsAtom, page.items);
    setFeed(get, set, handle, { ids: page.items.map((p) => p.id), cursor: page.nextCursor, status: 'ready', baseline: createdNow });
  } catch (err) {
    if (feedOf(get, handle).gen !== gen) return;
    console.error('Group feed failed', err);
    const notfound = isApiError(err) && (err.status === 403 || err.status === 404);
    setFeed(get, set, handle, { status: notfound ? 'notfound' : feedOf(get, handle).ids.length === 0 ? 'error' : 'ready' });
  }
});

export const loadMoreGroupFeedAtom = atom(null, async (get, set, handle: string) => {
  const f = feedOf(get, handle);
  if (f.cursor === null || f.loadingMore || f.status !== 'ready') return;
  setFeed(get, set, handle, { loadingMore: true });
  try {
    const page = await fetchGroupPosts(handle, f.cursor, FEED_PAGE_SIZE);
    if (feedOf(get, handle).gen !== f.gen) return;
    set(upsertPostsAtom, page.items);
    const have = new Set(feedOf(get, handle).ids);
    setFeed(get, set, handle, {
      ids: [...feedOf(get, handle).ids, ...page.items.map((p) => p.id).filter((id) => !have.has(id))],
      cursor: page.nextCursor,
    });
  } catch (err) {
    console.error('Loading more group posts failed', err);
  } finally {
    setFeed(get, set, handle, { loadingMore: false });
  }
});

// --- the big screen ----------------------------------------------------------

interface LiveState {
  pinnedId: string | null;
  hotIds: string[];
  status: LoadStatus;
  /** When the order was last fetched (ms since epoch), for the "updated" line. */
  at: number;
}

const livesAtom = atom<Record<string, LiveState>>({});
const liveAtomCache = new Map<string, Atom<LiveState>>();
const EMPTY_LIVE: LiveState = { pinnedId: null, hotIds: [], status: 'idle', at: 0 };

/** The big screen's pinned post and hot posts (ids into the posts store, where live counts land). */
export function liveAtom(handle: string): Atom<LiveState> {
  let a = liveAtomCache.get(handle);
  if (!a) {
    a = atom((get) => {
      const l = get(livesAtom)[handle] ?? EMPTY_LIVE;
      const byId = get(postsByIdReadAtom);
      return { ...l, pinnedId: l.pinnedId && byId[l.pinnedId] ? l.pinnedId : null, hotIds: existingIds(l.hotIds, byId) };
    });
    liveAtomCache.set(handle, a);
  }
  return a;
}

/** Fetches the big screen's data: the order of the hot posts is the server's (likes in the last minutes). */
export const loadLiveAtom = atom(null, async (get, set, handle: string) => {
  const cur = get(livesAtom)[handle] ?? EMPTY_LIVE;
  if (cur.status === 'idle') set(livesAtom, { ...get(livesAtom), [handle]: { ...cur, status: 'loading' } });
  try {
    const data = await fetchLive(handle);
    set(upsertGroupsAtom, [data.group]);
    set(upsertPostsAtom, data.pinned ? [data.pinned, ...data.hot] : data.hot);
    set(livesAtom, {
      ...get(livesAtom),
      [handle]: {
        pinnedId: data.pinned?.id ?? null,
        // The pinned post shows on its own; the hot list does not repeat it.
        hotIds: data.hot.map((p) => p.id).filter((id) => id !== data.pinned?.id),
        status: 'ready',
        at: Date.now(),
      },
    });
  } catch (err) {
    const notfound = isApiError(err) && (err.status === 403 || err.status === 404);
    const prev = get(livesAtom)[handle] ?? EMPTY_LIVE;
    // A failed refresh keeps what is on screen; the next one may succeed.
    set(livesAtom, { ...get(livesAtom), [handle]: { ...prev, status: notfound ? 'notfound' : prev.status === 'ready' ? 'ready' : 'error' } });
    if (!notfound) console.error('Live view refresh failed', err);
  }
});
