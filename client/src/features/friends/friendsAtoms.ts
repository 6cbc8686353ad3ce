// Friends state (docs/product.md §2.15, §4 Friend request): the friends list, received
// and sent requests, suggestions, and the pending count behind the red
// Friends buttons (docs/product.md §2.9). The socket's frames write into it (friend:request,
// friend:accept, friend:removed, through app/realtime). Primitive atoms stay private.

import { atom, type Getter, type Setter } from 'jotai';
import type { UserSummary } from '../../api/models';
import type { FriendsTab } from '../../lib/navigation';
import {
  acceptFriendRequest,
  cancelFriendRequest,
  declineFriendRequest,
  fetchFriends,
  fetchPendingRequests,
  fetchSentRequests,
  fetchSuggestions,
  sendFriendRequest,
  unfriend,
  type FriendRequest,
  type Suggestion,
} from './friendsApi';

// null: not loaded yet.
const friendsBaseAtom = atom<UserSummary[] | null>(null);
const receivedBaseAtom = atom<FriendRequest[] | null>(null);
const sentBaseAtom = atom<FriendRequest[] | null>(null);
const suggestionsBaseAtom = atom<Suggestion[] | null>(null);
/** Received requests still pending: what turns the Friends buttons red. */
const pendingCountBaseAtom = atom(0);
/** Bumped by every change of who is whose friend (profiles re-check their Connect button). */
const friendshipVersionBaseAtom = atom(0);

export const friendsListAtom = atom((get) => get(friendsBaseAtom));
export const receivedRequestsAtom = atom((get) => get(receivedBaseAtom));
export const sentRequestsAtom = atom((get) => get(sentBaseAtom));
export const suggestionsAtom = atom((get) => get(suggestionsBaseAtom));
export const friendshipVersionAtom = atom((get) => get(friendshipVersionBaseAtom));

export const pendingRequestsCountAtom = atom((get) => get(pendingCountBaseAtom));
export const hasPendingRequestsAtom = atom((get) => get(pendingCountBaseAtom) > 0);

/** docs/product.md §2.15: Requests badge = received requests plus still-pending sent requests. */
export const requestsBadgeAtom = atom((get) => (get(receivedBaseAtom)?.length ?? get(pendingCountBaseAtom)) + (get(sentBaseAtom)?.length ?? 0));
/** docs/product.md §2.15: Suggestions badge = usable suggestions. */
export const suggestionsBadgeAtom = atom((get) => get(suggestionsBaseAtom)?.length ?? 0);

export const setPendingRequestsCountAtom = atom(null, (_get, set, n: number) => {
  set(pendingCountBaseAtom, Math.max(0, Math.floor(n)));
});

function setReceived(set: Setter, list: FriendRequest[]): void {
  set(receivedBaseAtom, list);
  set(pendingCountBaseAtom, list.length);
}

/** Reloads the received requests (and so the red buttons). List reads are empty on error (docs/product.md §8.5). */
export const refreshPendingRequestsAtom = atom(null, async (_get, set) => {
  try {
    const list = await fetchPendingRequests();
    setReceived(set, list);
  } catch {
    // Keep what is shown: a hiccup must not hide a pending request.
  }
});

export const loadFriendsAtom = atom(null, async (_get, set) => {
  try {
    set(friendsBaseAtom, await fetchFriends());
  } catch {
    set(friendsBaseAtom, []);
  }
});

export const loadRequestsAtom = atom(null, async (_get, set) => {
  const [received, sent] = await Promise.all([
    fetchPendingRequests().catch(() => [] as FriendRequest[]),
    fetchSentRequests().catch(() => [] as FriendRequest[]),
  ]);
  setReceived(set, received);
  set(sentBaseAtom, sent);
});

export const loadSuggestionsAtom = atom(null, async (_get, set) => {
  try {
    set(suggestionsBaseAtom, await fetchSuggestions());
  } catch (err) {
    console.error('Suggestions failed', err); // silent (docs/product.md §8.5)
    set(suggestionsBaseAtom, []);
  }
});

/** Pull-to-refresh (docs/product.md §2.15): reloads the active tab. */
export const refreshFriendsTabAtom = atom(null, async (_get, set, tab: FriendsTab) => {
  if (tab === 'friends') await set(loadFriendsAtom);
  else if (tab === 'requests') await set(loadRequestsAtom);
  else await set(loadSuggestionsAtom);
});

/** Everything the friends screen shows (its badges need all three tabs). */
export const loadAllFriendsDataAtom = atom(null, async (_get, set) => {
  await Promise.all([set(loadFriendsAtom), set(loadRequestsAtom), set(loadSuggestionsAtom)]);
});

function bump(get: Getter, set: Setter): void {
  set(friendshipVersionBaseAtom, get(friendshipVersionBaseAtom) + 1);
}

/** docs/product.md §4: accept moves the sender into the friends list and removes the request. Rejects on failure. */
export const acceptRequestAtom = atom(null, async (get, set, req: FriendRequest) => {
  await acceptFriendRequest(req.id);
  const received = (get(receivedBaseAtom) ?? []).filter((r) => r.id !== req.id);
  setReceived(set, received);
  const friends = get(friendsBaseAtom);
  if (friends && !friends.some((f) => f.id === req.sender.id)) set(friendsBaseAtom, [req.sender, ...friends]);
  const sugg = get(suggestionsBaseAtom);
  if (sugg) set(suggestionsBaseAtom, sugg.filter((s) => s.user.id !== req.sender.id));
  bump(get, set);
});

/** Accept by request id alone (a notification or a profile only knows the id). */
export const acceptRequestByIdAtom = atom(null, async (get, set, requestId: string) => {
  const known = get(receivedBaseAtom)?.find((r) => r.id === requestId);
  if (known) {
    await set(acceptRequestAtom, known);
    return;
  }
  await acceptFriendRequest(requestId);
  bump(get, set);
  void set(refreshPendingRequestsAtom);
  if (get(friendsBaseAtom)) void set(loadFriendsAtom);
});

/** docs/product.md §4: decline removes the item. */
export const declineRequestAtom = atom(null, async (get, set, req: FriendRequest) => {
  await declineFriendRequest(req.id);
  setReceived(set, (get(receivedBaseAtom) ?? []).filter((r) => r.id !== req.id));
  bump(get, set);
});

/** docs/product.md §4: cancel (by the sender) removes the item. */
export const cancelRequestAtom = atom(null, async (get, set, req: FriendRequest) => {
  await cancelFriendRequest(req.id);
  set(sentBaseAtom, (get(sentBaseAtom) ?? []).filter((r) => r.id !== req.id));
  bump(get, set);
  // The person may be suggested again now (issue 16 #4: suggestions went stale).
  if (get(suggestionsBaseAtom) !== null) void set(loadSuggestionsAtom);
});

/** docs/product.md §4: unfriend removes the item. */
export const unfriendAtom = atom(null, async (get, set, userId: string) => {
  await unfriend(userId);
  const friends = get(friendsBaseAtom);
  if (friends) set(friendsBaseAtom, friends.filter((f) => f.id !== userId));
  bump(get, set);
});

/**
 * Sends a request (docs/product.md §4: sending to a suggestion removes it from
 * suggestions; the friend-requests change shows in the Requests badge).
 * Resolves to the request; status 'accepted' when they had asked first.
 */
export const sendRequestAtom = atom(null, async (get, set, user: UserSummary): Promise<FriendRequest> => {
  const req = await sendFriendRequest(user.id);
  const sugg = get(suggestionsBaseAtom);
  if (sugg) set(suggestionsBaseAtom, sugg.filter((s) => s.user.id !== user.id));
  if (req.status === 'accepted') {
    const friends = get(friendsBaseAtom);
    if (friends && !friends.some((f) => f.id === user.id)) set(friendsBaseAtom, [user, ...friends]);
    const received = get(receivedBaseAtom);
    if (received) {
      setReceived(set, received.filter((r) => r.sender.id !== user.id));
    } else void set(refreshPendingRequestsAtom);
  } else {
    const sent = get(sentBaseAtom);
    const entry: FriendRequest = { ...req, id: req.id, receiver: req.receiver.id ? req.receiver : user, status: 'pending' };
    if (entry.id) set(sentBaseAtom, [entry, ...(sent ?? []).filter((r) => r.id !== entry.id)]);
    else void set(loadRequestsAtom);
  }
  bump(get, set);
  return req;
});

/** Live `friend:request`: the buttons turn red at once, then the list is re-read. */
export const friendRequestReceivedAtom = atom(null, (get, set) => {
  set(pendingCountBaseAtom, get(pendingCountBaseAtom) + 1);
  bump(get, set);
  void set(refreshPendingRequestsAtom);
});

/** Live `friend:accept`: someone accepted the viewer's request (or asked back). */
export const friendAcceptedAtom = atom(null, (get, set) => {
  bump(get, set);
  void set(refreshPendingRequestsAtom); // a crossing request of theirs is gone too
  if (get(friendsBaseAtom)) void set(loadFriendsAtom);
  if (get(sentBaseAtom)) void set(loadRequestsAtom);
});

/**
 * Live `friend:removed` (issue 16): the other person declined the viewer's
 * request, cancelled the one they sent, or ended the friendship. Their
 * entries leave the lists at once, profiles re-check their button, and
 * loaded suggestions are re-read (the person may be suggested again).
 */
export const friendRemovedAtom = atom(null, (get, set, e: { userId: string; requestId?: string }) => {
  const gone = (r: FriendRequest) => r.id === e.requestId || r.sender.id === e.userId || r.receiver.id === e.userId;
  const received = get(receivedBaseAtom);
  if (received) setReceived(set, received.filter((r) => !gone(r)));
  else void set(refreshPendingRequestsAtom);
  const sent = get(sentBaseAtom);
  if (sent) set(sentBaseAtom, sent.filter((r) => !gone(r)));
  const friends = get(friendsBaseAtom);
  if (friends) set(friendsBaseAtom, friends.filter((f) => f.id !== e.userId));
  bump(get, set);
  if (get(suggestionsBaseAtom) !== null) void set(loadSuggestionsAtom);
});
