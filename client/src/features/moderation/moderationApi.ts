// The moderators' queue and actions (issue 17). Every call answers 403 to a
// member who is not a moderator.

import { apiGet, apiPost } from '../../api/http';
import { isRecord, str } from '../../api/models';

export interface Capabilities {
  moderator: boolean;
  admin: boolean;
}

export interface QueueItem {
  itemType: 'post' | 'comment' | 'profile';
  itemId: string;
  postId: string;
  content: string;
  authorId: string;
  authorName: string;
  reports: number;
  reasons: string[];
  details: string[];
  latestAt: string;
  removed: boolean;
  suspended: boolean;
}

export interface QueuePage {
  items: QueueItem[];
  nextCursor: string | null;
}

export async function fetchCapabilities(): Promise<Capabilities> {
  const data = await apiGet<unknown>('/safety/capabilities');
  return { moderator: isRecord(data) && data.moderator === true, admin: isRecord(data) && data.admin === true };
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

export async function fetchQueue(cursor?: string | null): Promise<QueuePage> {
  const data = await apiGet<unknown>(cursor ? `/moderation/queue?limit=20&cursor=${encodeURIComponent(cursor)}` : '/moderation/queue?limit=20');
  const out: QueuePage = { items: [], nextCursor: null };
  if (!isRecord(data)) return out;
  if (Array.isArray(data.items)) {
    for (const it of data.items) {
      if (!isRecord(it)) continue;
      const author = isRecord(it.author) ? it.author : {};
      const t = str(it.itemType);
      out.items.push({
        itemType: t === 'comment' || t === 'profile' ? t : 'post',
        itemId: str(it.itemId),
        postId: str(it.postId),
        content: str(it.content),
        authorId: str(author.id),
        authorName: str(author.name) || 'User',
        reports: typeof it.reports === 'number' ? it.reports : 0,
        reasons: strings(it.reasons),
        details: strings(it.details),
        latestAt: str(it.latestAt),
        removed: it.removed === true,
        suspended: it.suspended === true,
      });
    }
  }
  out.nextCursor = typeof data.nextCursor === 'string' && data.nextCursor ? data.nextCursor : null;
  return out;
}

export async function dismissItem(item: QueueItem, reason: string): Promise<void> {
  await apiPost<unknown>(`/moderation/items/${item.itemType}/${encodeURIComponent(item.itemId)}/dismiss`, { reason });
}

export async function removeItem(item: QueueItem, reason: string): Promise<void> {
  await apiPost<unknown>(`/moderation/items/${item.itemType}/${encodeURIComponent(item.itemId)}/remove`, { reason });
}

/** days 0 suspends for good. */
export async function suspendUser(userId: string, reason: string, days: number): Promise<void> {
  await apiPost<unknown>(`/moderation/users/${encodeURIComponent(userId)}/suspend`, { reason, days });
}
