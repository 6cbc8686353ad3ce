// The group calls (issue 18, /work/wt/briefs/GROUPS_API.md). Lists answer
// `{items…, nextCursor}` pages like /api/posts/feed; anything else rejects
// with the ApiError of api/http.

import { apiDelete, apiGet, apiPatch, apiPost, apiPut, upload } from '../../api/http';
import { isRecord, str } from '../../api/models';
import { FEED_PAGE_SIZE } from '../../constants';
import type { Post } from '../posts/model';
import { normalizePost } from '../posts/model';
import { postsPage, query, type Page } from '../posts/postsApi';
import {
  normalizeGroup,
  normalizeJoinRequest,
  normalizeMember,
  type Group,
  type GroupMember,
  type GroupRole,
  type GroupSuggestion,
  type JoinRequest,
} from './model';

export type { Page };

const base = (handle: string) => `/groups/${encodeURIComponent(handle)}`;

/** The list in an answer: the array itself, or the first of `keys` that is one. */
function listIn(data: unknown, ...keys: string[]): unknown[] {
  if (Array.isArray(data)) return data;
  if (!isRecord(data)) return [];
  for (const k of keys) if (Array.isArray(data[k])) return data[k] as unknown[];
  return [];
}

function cursorIn(data: unknown): string | null {
  return isRecord(data) ? str(data.nextCursor) || null : null;
}

function groupIn(data: unknown): Group {
  const g = normalizeGroup(isRecord(data) && isRecord(data.group) ? data.group : data);
  if (!g.id || !g.handle) throw new Error('Invalid response from server');
  return g;
}

function groupsPage(data: unknown): Page<Group> {
  return {
    items: listIn(data, 'groups', 'items').map(normalizeGroup).filter((g) => g.id !== '' && g.handle !== ''),
    nextCursor: cursorIn(data),
  };
}

export async function searchGroups(q: string, cursor: string | null, signal?: AbortSignal): Promise<Page<Group>> {
  return groupsPage(await apiGet<unknown>(`/groups${query({ q: q.trim(), cursor, limit: 20 })}`, { signal }));
}

export async function fetchMyGroups(signal?: AbortSignal): Promise<Group[]> {
  return groupsPage(await apiGet<unknown>('/groups/mine', { signal })).items;
}

export async function fetchGroupSuggestions(signal?: AbortSignal): Promise<GroupSuggestion[]> {
  const data = await apiGet<unknown>('/groups/suggestions', { signal });
  return listIn(data, 'suggestions', 'items')
    .filter(isRecord)
    .map((s) => ({ group: normalizeGroup(s.group), reason: str(s.reason) }))
    .filter((s) => s.group.id !== '' && s.group.handle !== '');
}

export async function fetchGroup(handle: string, signal?: AbortSignal): Promise<Group> {
  return groupIn(await apiGet<unknown>(base(handle), { signal }));
}

export async function createGroup(body: Record<string, unknown>): Promise<Group> {
  return groupIn(await apiPost<unknown>('/groups', body));
}

export async function updateGroup(handle: string, body: Record<string, unknown>): Promise<Group> {
  return groupIn(await apiPatch<unknown>(base(handle), body));
}

export async function deleteGroup(handle: string): Promise<void> {
  await apiDelete<unknown>(base(handle));
}

/** Switches the group's chat on or off (its owner and admins) → the group, carrying chatEnabled and chatId. */
export async function setGroupChat(handle: string, enabled: boolean): Promise<Group> {
  return groupIn(await apiPut<unknown>(`${base(handle)}/chat`, { enabled }));
}

/** POST …/avatar or …/cover, multipart `image` → the group. */
export async function uploadGroupImage(handle: string, which: 'avatar' | 'cover', file: File, onProgress?: (p: number) => void): Promise<Group> {
  const form = new FormData();
  form.append('image', file, file.name);
  return groupIn(await upload<unknown>(`${base(handle)}/${which}`, form, { onProgress }));
}

/** Join (public, course-eligible, invited) or request (closed): the answer is the group with my new status. */
export async function joinGroup(handle: string): Promise<Group | null> {
  return groupOrNull(await apiPost<unknown>(`${base(handle)}/join`));
}

export async function leaveGroup(handle: string): Promise<Group | null> {
  return groupOrNull(await apiPost<unknown>(`${base(handle)}/leave`));
}

export async function cancelJoinRequest(handle: string): Promise<Group | null> {
  return groupOrNull(await apiDelete<unknown>(`${base(handle)}/request`));
}

export async function declineInvitation(handle: string): Promise<Group | null> {
  return groupOrNull(await apiPost<unknown>(`${base(handle)}/invitation/decline`));
}

/** Some membership answers carry the group, some only a status: the caller re-reads it when null. */
function groupOrNull(data: unknown): Group | null {
  const g = normalizeGroup(isRecord(data) && isRecord(data.group) ? data.group : data);
  return g.id && g.handle ? g : null;
}

export async function fetchMembers(handle: string, cursor: string | null, role?: GroupRole): Promise<Page<GroupMember>> {
  const data = await apiGet<unknown>(`${base(handle)}/members${query({ role, cursor })}`);
  return {
    items: listIn(data, 'members', 'items').map(normalizeMember).filter((m) => m.user.id !== ''),
    nextCursor: cursorIn(data),
  };
}

export async function fetchJoinRequests(handle: string, cursor: string | null): Promise<Page<JoinRequest>> {
  const data = await apiGet<unknown>(`${base(handle)}/requests${query({ cursor })}`);
  return {
    items: listIn(data, 'requests', 'items').map(normalizeJoinRequest).filter((r) => r.user.id !== ''),
    nextCursor: cursorIn(data),
  };
}

export async function answerJoinRequest(handle: string, userId: string, approve: boolean): Promise<void> {
  await apiPost<unknown>(`${base(handle)}/requests/${encodeURIComponent(userId)}/${approve ? 'approve' : 'decline'}`);
}

export async function inviteToGroup(handle: string, userId: string): Promise<void> {
  await apiPost<unknown>(`${base(handle)}/invitations`, { userId });
}

export async function setMemberRole(handle: string, userId: string, role: 'admin' | 'member'): Promise<void> {
  await apiPatch<unknown>(`${base(handle)}/members/${encodeURIComponent(userId)}`, { role });
}

export async function removeMember(handle: string, userId: string): Promise<void> {
  await apiDelete<unknown>(`${base(handle)}/members/${encodeURIComponent(userId)}`);
}

export async function transferOwnership(handle: string, userId: string): Promise<void> {
  await apiPost<unknown>(`${base(handle)}/transfer`, { userId });
}

export async function setFollowClosely(handle: string, closely: boolean): Promise<void> {
  await apiPut<unknown>(`${base(handle)}/follow`, { closely });
}

export async function pinPost(handle: string, postId: string | null): Promise<void> {
  await apiPut<unknown>(`${base(handle)}/pin`, { postId });
}

export async function fetchGroupPosts(handle: string, cursor: string | null, limit = FEED_PAGE_SIZE, signal?: AbortSignal): Promise<Page<Post>> {
  return postsPage(await apiGet<unknown>(`${base(handle)}/posts${query({ limit, cursor })}`, { signal }));
}

/** GET …/live: the big screen's data. */
export interface LiveData {
  group: Group;
  pinned: Post | null;
  hot: Post[];
}

export async function fetchLive(handle: string, signal?: AbortSignal): Promise<LiveData> {
  const data = await apiGet<unknown>(`${base(handle)}/live`, { signal });
  const r = isRecord(data) ? data : {};
  const pinned = isRecord(r.pinned) ? normalizePost(r.pinned) : null;
  return {
    group: groupIn(r.group),
    pinned: pinned && pinned.id ? pinned : null,
    hot: (Array.isArray(r.hot) ? r.hot : []).map(normalizePost).filter((p) => p.id !== ''),
  };
}
