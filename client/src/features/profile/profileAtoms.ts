// The profile screen's state (docs/product.md §2.14, §4 Profile like / Profile edit):
// the viewed profile, its posts (ids into the shared posts store, so likes
// and deletions anywhere show here too), its friends, the like count and
// flag. One profile is on screen at a time. Primitive atoms stay private.

import { atom, type Getter, type Setter } from 'jotai';
import { isNoAnswer } from '../../api/http';
import type { UserSummary } from '../../api/models';
import { readOffline, saveOffline } from '../../lib/offlineCache';
import { readJSON, STORAGE_KEYS, writeJSON } from '../../lib/storage';
import { currentUserAtom, updateCurrentUserAtom } from '../auth/authAtoms';
import { fetchFriends, fetchUserFriends } from '../friends/friendsApi';
import type { Post, PostImage } from '../posts/model';
import { fetchUserPosts } from '../posts/postsApi';
import { createdPostIdsAtom, existingIds, postsByIdReadAtom, upsertPostsAtom } from '../posts/postsAtoms';
import { toggledProfileLike } from './connectState';
import { draftToPayload, initialProfileLike, type Profile, type ProfileDraft } from './model';
import { fetchProfile, setProfileLike, updateProfile, uploadAvatar, uploadCover } from './profileApi';

export const PROFILE_POSTS_PAGE = 12;

/** 'offline': no server answered and nothing was kept for this profile (issue 27 item 5). */
export type ProfileStatus = 'loading' | 'ready' | 'notfound' | 'offline';

interface ProfileState {
  /** The requested user id ('' for the own profile). */
  key: string;
  status: ProfileStatus;
  profile: Profile | null;
  postIds: string[];
  cursor: string | null;
  postsStatus: 'loading' | 'ready';
  loadingMore: boolean;
  friends: UserSummary[] | null;
  like: { count: number; liked: boolean };
  /** Posts created this session that were already there when the profile loaded. */
  createdBaseline: ReadonlySet<string>;
  /** When the profile shown offline was read (ISO); '' when it is live. */
  offlineSavedAt: string;
}

const EMPTY: ProfileState = {
  key: '',
  status: 'loading',
  profile: null,
  postIds: [],
  cursor: null,
  postsStatus: 'loading',
  loadingMore: false,
  friends: null,
  like: { count: 0, liked: false },
  createdBaseline: new Set(),
  offlineSavedAt: '',
};

const stateAtom = atom<ProfileState>(EMPTY);
const generationAtom = atom(0);

/** Which profile the state is about ('' for the own one). */
export const profileKeyAtom = atom((get) => get(stateAtom).key);
export const profileStatusAtom = atom((get) => get(stateAtom).status);
export const profileOfflineSavedAtAtom = atom((get) => get(stateAtom).offlineSavedAt);
export const profileAtom = atom((get) => get(stateAtom).profile);
export const profileFriendsAtom = atom((get) => get(stateAtom).friends);
export const profileLikeAtom = atom((get) => get(stateAtom).like);
export const profilePostsStatusAtom = atom((get) => get(stateAtom).postsStatus);
export const profileHasMorePostsAtom = atom((get) => get(stateAtom).cursor !== null);
export const profileLoadingMoreAtom = atom((get) => get(stateAtom).loadingMore);

/** Whether the profile on screen is the signed-in user's. */
export const isOwnProfileAtom = atom((get) => {
  const p = get(stateAtom).profile;
  const me = get(currentUserAtom);
  return !!p && !!me && p.id === me.id;
});

/** docs/product.md §4 Post dialog: posts the owner created this session go on top of the Memories list. */
export const profilePostIdsAtom = atom((get) => {
  const s = get(stateAtom);
  const byId = get(postsByIdReadAtom);
  const ownerId = s.profile?.id;
  const fresh = ownerId
    ? get(createdPostIdsAtom).filter((id) => !s.createdBaseline.has(id) && byId[id]?.author.id === ownerId)
    : [];
  return existingIds([...fresh, ...s.postIds], byId);
});

/** The Memories tile: the server's count, plus posts created here, minus ones deleted here. */
export const profilePostsCountAtom = atom((get) => {
  const s = get(stateAtom);
  if (!s.profile) return 0;
  const byId = get(postsByIdReadAtom);
  const shown = get(profilePostIdsAtom);
  const fresh = shown.filter((id) => !s.postIds.includes(id)).length;
  const deleted = s.postIds.filter((id) => !byId[id]).length;
  return Math.max(0, s.profile.postsCount + fresh - deleted, shown.length);
});

/** docs/product.md §2.14 Collections: the image-type images of the user's posts, newest first. */
export const profileImagesAtom = atom((get) => {
  const byId = get(postsByIdReadAtom);
  const out: Array<PostImage & { postId: string }> = [];
  for (const id of get(profilePostIdsAtom)) {
    for (const img of byId[id]?.images ?? []) if (img.type === 'image') out.push({ ...img, postId: id });
  }
  return out;
});

function patch(get: Getter, set: Setter, key: string, p: Partial<ProfileState>): void {
  const cur = get(stateAtom);
  if (cur.key !== key) return; // another profile is on screen now
  set(stateAtom, { ...cur, ...p });
}

/** docs/product.md §3 local storage extras: like counts by user, and the viewer's flags. */
function rememberLike(viewerId: string, targetId: string, like: { count: number; liked: boolean }): void {
  const counts = readJSON(STORAGE_KEYS.profileLikes);
  const flags = readJSON(STORAGE_KEYS.userProfileLikes);
  writeJSON(STORAGE_KEYS.profileLikes, { ...(counts && typeof counts === 'object' ? counts : {}), [targetId]: like.count });
  writeJSON(STORAGE_KEYS.userProfileLikes, {
    ...(flags && typeof flags === 'object' ? flags : {}),
    [`${viewerId}:${targetId}`]: like.liked,
  });
}

async function loadPosts(get: Getter, set: Setter, key: string, userId: string, gen: number): Promise<void> {
  try {
    const page = await fetchUserPosts(userId, null, PROFILE_POSTS_PAGE);
    if (get(generationAtom) !== gen) return;
    set(upsertPostsAtom, page.items);
    patch(get, set, key, { postIds: page.items.map((p) => p.id), cursor: page.nextCursor, postsStatus: 'ready' });
  } catch (err) {
    if (get(generationAtom) !== gen) return;
    console.error('Profile posts failed', err);
    patch(get, set, key, { postIds: [], cursor: null, postsStatus: 'ready' });
  }
}

async function loadFriends(get: Getter, set: Setter, key: string, userId: string, own: boolean, gen: number): Promise<void> {
  let friends: UserSummary[];
  try {
    friends = own ? await fetchFriends() : await fetchUserFriends(userId);
  } catch {
    friends = []; // docs/product.md §8.5: friend list reads are empty on error
  }
  if (get(generationAtom) !== gen) return;
  patch(get, set, key, { friends });
}

/**
 * Loads the profile of userId (null: the own one), then its posts and
 * friends. docs/product.md §8.5: a failed load empties profile, posts and friends and
 * the screen shows 'Profile not found'.
 */
export const loadProfileAtom = atom(null, async (get, set, userId: string | null) => {
  const key = userId ?? '';
  const gen = get(generationAtom) + 1;
  set(generationAtom, gen);
  const cur = get(stateAtom);
  // A profile shown offline stays on screen while it is asked for again.
  if (!(cur.key === key && cur.offlineSavedAt)) set(stateAtom, { ...EMPTY, key, createdBaseline: new Set(get(createdPostIdsAtom)) });
  const me = get(currentUserAtom);
  const keptAs = `profile:${key || 'me'}`;
  let profile: Profile;
  try {
    profile = await fetchProfile(userId);
  } catch (err) {
    if (get(generationAtom) !== gen) return;
    console.warn('Profile failed to load', err);
    if (isNoAnswer(err)) {
      // Offline: what was last read of it, else say so — never "not found".
      const kept = readOffline<KeptProfile>(me?.id ?? '', keptAs);
      if (kept && kept.data.profile) {
        set(upsertPostsAtom, kept.data.posts);
        patch(get, set, key, {
          status: 'ready',
          profile: kept.data.profile,
          like: initialProfileLike(kept.data.profile, me?.id),
          postIds: kept.data.posts.map((p) => p.id),
          cursor: null,
          postsStatus: 'ready',
          friends: kept.data.friends,
          offlineSavedAt: kept.savedAt,
        });
        return;
      }
      patch(get, set, key, { status: 'offline', profile: null, postIds: [], friends: [], postsStatus: 'ready', offlineSavedAt: '' });
      return;
    }
    patch(get, set, key, { status: 'notfound', profile: null, postIds: [], friends: [], postsStatus: 'ready', offlineSavedAt: '' });
    return;
  }
  if (get(generationAtom) !== gen) return;
  const own = !!me && profile.id === me.id;
  if (get(stateAtom).offlineSavedAt) set(stateAtom, { ...EMPTY, key, createdBaseline: new Set(get(createdPostIdsAtom)) });
  patch(get, set, key, { status: 'ready', profile, like: initialProfileLike(profile, me?.id), offlineSavedAt: '' });
  await Promise.all([loadPosts(get, set, key, profile.id, gen), loadFriends(get, set, key, profile.id, own, gen)]);
  if (get(generationAtom) !== gen) return;
  // Kept for reading offline: the profile, its first posts and its friends, as read.
  const after = get(stateAtom);
  const byId = get(postsByIdReadAtom);
  const posts = after.postIds.map((id) => byId[id]).filter((p): p is Post => !!p);
  saveOffline(me?.id ?? '', keptAs, { profile: after.profile, posts, friends: after.friends ?? [] } satisfies KeptProfile);
});

/** A profile as kept for reading offline. */
interface KeptProfile {
  profile: Profile | null;
  posts: Post[];
  friends: UserSummary[];
}

/** Re-reads the friends of the profile on screen (after an unfriend, docs/product.md §4). */
export const reloadProfileFriendsAtom = atom(null, async (get, set) => {
  const s = get(stateAtom);
  if (!s.profile) return;
  const me = get(currentUserAtom);
  const own = !!me && s.profile.id === me.id;
  const gen = get(generationAtom);
  await loadFriends(get, set, s.key, s.profile.id, own, gen);
  // The friend count follows the list of the viewed user.
  const after = get(stateAtom);
  if (after.key === s.key && after.profile && after.friends) {
    patch(get, set, s.key, { profile: { ...after.profile, friendsCount: after.friends.length } });
  }
});

/** Adds (n = +1) or removes (−1) one friend from the count of the profile on screen. */
export const adjustProfileFriendsCountAtom = atom(null, (get, set, delta: number) => {
  const s = get(stateAtom);
  if (!s.profile) return;
  patch(get, set, s.key, { profile: { ...s.profile, friendsCount: Math.max(0, s.profile.friendsCount + delta) } });
});

export const loadMoreProfilePostsAtom = atom(null, async (get, set) => {
  const s = get(stateAtom);
  if (!s.profile || s.cursor === null || s.loadingMore) return;
  const gen = get(generationAtom);
  patch(get, set, s.key, { loadingMore: true });
  try {
    const page = await fetchUserPosts(s.profile.id, s.cursor, PROFILE_POSTS_PAGE);
    if (get(generationAtom) !== gen) return;
    set(upsertPostsAtom, page.items);
    const cur = get(stateAtom);
    const have = new Set(cur.postIds);
    patch(get, set, s.key, {
      postIds: [...cur.postIds, ...page.items.map((p) => p.id).filter((id) => !have.has(id))],
      cursor: page.nextCursor,
    });
  } catch (err) {
    console.error('Loading more profile posts failed', err);
  } finally {
    patch(get, set, s.key, { loadingMore: false });
  }
});

/**
 * docs/product.md §4 Profile like (another user's profile): optimistic; liked means
 * count − 1 and an unlike call, otherwise count + 1 and a like call. Call
 * failures are ignored; a success adopts the server's count.
 */
export const toggleProfileLikeAtom = atom(null, async (get, set) => {
  const s = get(stateAtom);
  const me = get(currentUserAtom);
  if (!s.profile || !me || s.profile.id === me.id) return;
  const next = toggledProfileLike(s.like);
  patch(get, set, s.key, { like: next });
  rememberLike(me.id, s.profile.id, next);
  try {
    const res = await setProfileLike(s.profile.id, next.liked);
    const cur = get(stateAtom);
    // Adopt the answer only if no later click changed the state meanwhile.
    if (res && cur.key === s.key && cur.like.liked === next.liked && cur.like.count === next.count) {
      const like = { count: res.likesCount, liked: res.isLiked };
      patch(get, set, s.key, { like });
      rememberLike(me.id, s.profile.id, like);
    }
  } catch (err) {
    console.error('Profile like failed', err); // ignored (docs/product.md §4)
  }
});

/** docs/product.md §4 Profile edit: save sets the profile (and the signed-in user's name, bio, location). Rejects on failure. */
export const saveProfileAtom = atom(null, async (get, set, draft: ProfileDraft) => {
  const updated = await updateProfile(draftToPayload(draft));
  const s = get(stateAtom);
  if (s.profile) {
    // Counts are not part of the edit: keep the screen's.
    const merged: Profile = {
      ...updated,
      id: s.profile.id,
      postsCount: updated.postsCount || s.profile.postsCount,
      friendsCount: updated.friendsCount || s.profile.friendsCount,
    };
    patch(get, set, s.key, { profile: merged });
  }
  set(updateCurrentUserAtom, { name: updated.name, bio: updated.bio, location: updated.location });
});

/** docs/product.md §4: avatar uploads take effect at once and update the signed-in user. Rejects on failure. */
export const uploadProfileAvatarAtom = atom(null, async (get, set, file: File, onProgress?: (p: number) => void) => {
  const avatar = await uploadAvatar(file, onProgress);
  const s = get(stateAtom);
  const me = get(currentUserAtom);
  if (s.profile && me && s.profile.id === me.id) patch(get, set, s.key, { profile: { ...s.profile, avatar } });
  set(updateCurrentUserAtom, { avatar });
});

/** docs/product.md §4: cover uploads take effect at once and update the signed-in user. Rejects on failure. */
export const uploadProfileCoverAtom = atom(null, async (get, set, file: File, onProgress?: (p: number) => void) => {
  const coverPhoto = await uploadCover(file, onProgress);
  const s = get(stateAtom);
  const me = get(currentUserAtom);
  if (s.profile && me && s.profile.id === me.id) patch(get, set, s.key, { profile: { ...s.profile, coverPhoto } });
  set(updateCurrentUserAtom, { coverPhoto });
});
