// Blocks, mutes and reports (issue 17): what any member does to keep
// themselves safe. Blocking hides both people from each other; muting hides
// someone's posts from my feed without telling them.

import { apiDelete, apiGet, apiPost } from '../../api/http';
import { isRecord, str } from '../../api/models';

export interface ListedUser {
  id: string;
  name: string;
  avatar: string;
  listedAt: string;
}

export interface ListedPage {
  users: ListedUser[];
  nextCursor: string | null;
}

export const REPORT_REASONS = [
  { id: 'spam', label: 'Spam' },
  { id: 'harassment', label: 'Harassment' },
  { id: 'hate', label: 'Hate' },
  { id: 'nudity', label: 'Nudity' },
  { id: 'self_harm', label: 'Self-harm' },
  { id: 'other', label: 'Other' },
] as const;

export type ReportReason = (typeof REPORT_REASONS)[number]['id'];
export type ReportItemType = 'post' | 'comment' | 'profile';
export const MAX_REPORT_DETAILS = 1000;

function avatarOf(u: Record<string, unknown>): string {
  if (typeof u.avatar === 'string') return u.avatar;
  if (isRecord(u.avatar)) return str(u.avatar.url);
  return str(u.avatarUrl);
}

function listedPage(data: unknown): ListedPage {
  const out: ListedPage = { users: [], nextCursor: null };
  if (!isRecord(data)) return out;
  if (Array.isArray(data.users)) {
    for (const row of data.users) {
      if (!isRecord(row) || !isRecord(row.user)) continue;
      out.users.push({ id: str(row.user.id), name: str(row.user.name) || 'User', avatar: avatarOf(row.user), listedAt: str(row.listedAt) });
    }
  }
  out.nextCursor = typeof data.nextCursor === 'string' && data.nextCursor ? data.nextCursor : null;
  return out;
}

function query(cursor?: string | null): string {
  return cursor ? `?limit=50&cursor=${encodeURIComponent(cursor)}` : '?limit=50';
}

export async function listBlocked(cursor?: string | null): Promise<ListedPage> {
  return listedPage(await apiGet<unknown>(`/safety/blocks${query(cursor)}`));
}

export async function blockUser(userId: string): Promise<void> {
  await apiPost<unknown>(`/safety/blocks/${encodeURIComponent(userId)}`);
}

export async function unblockUser(userId: string): Promise<void> {
  await apiDelete<unknown>(`/safety/blocks/${encodeURIComponent(userId)}`);
}

export async function listMuted(cursor?: string | null): Promise<ListedPage> {
  return listedPage(await apiGet<unknown>(`/safety/mutes${query(cursor)}`));
}

export async function muteUser(userId: string): Promise<void> {
  await apiPost<unknown>(`/safety/mutes/${encodeURIComponent(userId)}`);
}

export async function unmuteUser(userId: string): Promise<void> {
  await apiDelete<unknown>(`/safety/mutes/${encodeURIComponent(userId)}`);
}

export async function report(itemType: ReportItemType, itemId: string, reason: ReportReason, details: string): Promise<string> {
  const data = await apiPost<unknown>('/reports', { itemType, itemId, reason, details });
  return isRecord(data) ? str(data.message) : '';
}
