// Friend calls this part of the client needs (spec §7.4): suggestions,
// sending a request and the pending count for the top bar.

import { apiGet, apiPost } from '../../api/http';
import { isRecord, normalizeUserSummary, num, str, type UserSummary } from '../../api/models';

export interface Suggestion {
  user: UserSummary;
  mutualFriends: number;
  relevance: string[];
  priority: number;
}

/** Spec §3: items may wrap the user; only users with both id and name are usable (spec §2.15). */
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

export async function fetchSuggestions(signal?: AbortSignal): Promise<Suggestion[]> {
  return normalizeSuggestions(await apiGet<unknown>('/friends/suggestions', { signal }));
}

export async function sendFriendRequest(receiverId: string): Promise<void> {
  await apiPost<unknown>('/friends/send-request', { receiverId });
}

/** Received requests still pending (the top bar's red Friends button). */
export async function fetchPendingRequestCount(): Promise<number> {
  const data = await apiGet<unknown>('/friends/pending-requests');
  const list = isRecord(data) && Array.isArray(data.pendingRequests) ? data.pendingRequests : [];
  return list.filter((r) => !isRecord(r) || r.status === undefined || r.status === 'pending').length;
}
