// The friend calls (docs/product.md §7.4, docs/protocol.md §1). Reads of lists answer an empty
// list on error (docs/product.md §8.5: "Friend list reads return an empty list on
// error"); send, accept, decline, cancel and unfriend propagate the error.

import { apiDelete, apiGet, apiPatch, apiPost } from '../../api/http';
import { idOf, isRecord, normalizeUserSummary, num, str, type UserSummary } from '../../api/models';

export interface Suggestion {
  user: UserSummary;
  mutualFriends: number;
  relevance: string[];
  priority: number;
}

/**
 * Why someone is suggested, worded the same on the find-people page and the
 * feed's People You May Know: mutual friends first, else the course or batch
 * shared; '' when neither.
 */
export function suggestionReason(s: Pick<Suggestion, 'mutualFriends' | 'relevance'>): string {
  if (s.mutualFriends > 0) return `${s.mutualFriends} mutual friend${s.mutualFriends === 1 ? '' : 's'}`;
  const course = s.relevance.includes('course');
  const batch = s.relevance.includes('batch');
  if (course && batch) return 'Same course and batch';
  if (course) return 'Same course';
  if (batch) return 'Same batch';
  return '';
}

/** docs/product.md §3 Friend request: only pending ones are shown. */
export interface FriendRequest {
  id: string;
  sender: UserSummary;
  receiver: UserSummary;
  status: string;
  createdAt: string;
}

/** GET /friends/check/{id}. */
export interface FriendCheck {
  isFriend: boolean;
  requestSent: boolean;
  requestReceived: boolean;
  requestId: string;
}

/** docs/product.md §3: items may wrap the user; only users with both id and name are usable (docs/product.md §2.15). */
export function normalizeSuggestions(data: unknown): Suggestion[] {
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.suggestions) ? data.suggestions : [];
  const out: Suggestion[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const rawUser = isRecord(item.user) ? item.user : item;
    if (!str(rawUser.name).trim()) continue;
    const user = normalizeUserSummary(rawUser);
    if (!user.id) continue;
    out.push({
      user,
      mutualFriends: num(item.mutualFriends),
      relevance: Array.isArray(item.relevance) ? item.relevance.map((x) => str(x)).filter(Boolean) : [],
      priority: num(item.priority),
    });
  }
  return out;
}

export function normalizeFriendRequest(v: unknown): FriendRequest {
  const r = isRecord(v) ? v : {};
  return {
    id: idOf(r),
    sender: normalizeUserSummary(r.sender),
    receiver: normalizeUserSummary(r.receiver),
    status: str(r.status) || 'pending',
    createdAt: str(r.createdAt),
  };
}

function listOf(data: unknown, key: string): unknown[] {
  if (Array.isArray(data)) return data;
  return isRecord(data) && Array.isArray(data[key]) ? data[key] : [];
}

function usersOf(data: unknown): UserSummary[] {
  return listOf(data, 'friends')
    .map(normalizeUserSummary)
    .filter((u) => u.id !== '');
}

function requestsOf(data: unknown, key: string): FriendRequest[] {
  return listOf(data, key)
    .map(normalizeFriendRequest)
    .filter((r) => r.id !== '' && r.status === 'pending');
}

/** The limit asked of list calls: the server's maximum page (docs/protocol.md §1.6). */
const LIST_LIMIT = 100;

export async function fetchSuggestions(signal?: AbortSignal): Promise<Suggestion[]> {
  return normalizeSuggestions(await apiGet<unknown>('/friends/suggestions', { signal }));
}

/** The signed-in user's friends. */
export async function fetchFriends(signal?: AbortSignal): Promise<UserSummary[]> {
  return usersOf(await apiGet<unknown>(`/friends/friends-list?limit=${LIST_LIMIT}`, { signal }));
}

/** Another user's friends (the profile's Friends tab). */
export async function fetchUserFriends(userId: string, signal?: AbortSignal): Promise<UserSummary[]> {
  return usersOf(await apiGet<unknown>(`/friends/user-friends/${encodeURIComponent(userId)}?limit=${LIST_LIMIT}`, { signal }));
}

/** Requests others sent to the signed-in user, still pending. */
export async function fetchPendingRequests(signal?: AbortSignal): Promise<FriendRequest[]> {
  return requestsOf(await apiGet<unknown>(`/friends/pending-requests?limit=${LIST_LIMIT}`, { signal }), 'pendingRequests');
}

/** Requests the signed-in user sent, still pending. */
export async function fetchSentRequests(signal?: AbortSignal): Promise<FriendRequest[]> {
  return requestsOf(await apiGet<unknown>(`/friends/sent-requests?limit=${LIST_LIMIT}`, { signal }), 'sentRequests');
}

/** Sends a request; the answer's request (status 'accepted' when they had asked first). */
export async function sendFriendRequest(receiverId: string): Promise<FriendRequest> {
  const data = await apiPost<unknown>('/friends/send-request', { receiverId });
  return normalizeFriendRequest(isRecord(data) ? data.friendRequest : undefined);
}

export async function acceptFriendRequest(requestId: string): Promise<void> {
  await apiPatch<unknown>(`/friends/accept-request/${encodeURIComponent(requestId)}`);
}

export async function declineFriendRequest(requestId: string): Promise<void> {
  await apiPatch<unknown>(`/friends/decline-request/${encodeURIComponent(requestId)}`);
}

export async function cancelFriendRequest(requestId: string): Promise<void> {
  await apiDelete<unknown>(`/friends/cancel-request/${encodeURIComponent(requestId)}`);
}

export async function unfriend(userId: string): Promise<void> {
  await apiDelete<unknown>(`/friends/unfriend/${encodeURIComponent(userId)}`);
}

/** docs/product.md §8.5: a failed check reads as "not a friend, nothing sent". */
export async function checkFriend(userId: string, signal?: AbortSignal): Promise<FriendCheck> {
  try {
    const data = await apiGet<unknown>(`/friends/check/${encodeURIComponent(userId)}`, { signal });
    const r = isRecord(data) ? data : {};
    return {
      isFriend: r.isFriend === true,
      requestSent: r.requestSent === true,
      requestReceived: r.requestReceived === true,
      requestId: str(r.requestId),
    };
  } catch {
    return { isFriend: false, requestSent: false, requestReceived: false, requestId: '' };
  }
}

/** docs/product.md §8.5: friend actions show the error's message, else the fallback. */
export function friendErrorMessage(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

export const MSG_SEND_REQUEST_FAILED = 'Failed to send friend request';
export const MSG_REMOVE_FRIEND_FAILED = 'Failed to remove friend';
