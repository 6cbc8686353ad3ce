// The moderators' queue and actions (issue 17). Every call answers 403 to a
// member who is not a moderator.

import { apiDelete, apiGet, apiPost } from '../../api/http';
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

export interface Moderator {
  id: string;
  name: string;
  grantedAt: string;
}

export interface AuditEntry {
  id: string;
  action: string;
  actorName: string;
  itemType: string;
  targetName: string;
  reason: string;
  snapshot: string;
  createdAt: string;
}

export async function fetchModerators(): Promise<Moderator[]> {
  const data = await apiGet<unknown>('/admin/moderators?limit=100');
  const out: Moderator[] = [];
  if (isRecord(data) && Array.isArray(data.moderators)) {
    for (const m of data.moderators) {
      if (isRecord(m) && isRecord(m.user)) out.push({ id: str(m.user.id), name: str(m.user.name) || 'User', grantedAt: str(m.grantedAt) });
    }
  }
  return out;
}

export async function setModerator(userId: string, on: boolean, reason = ''): Promise<void> {
  const path = `/admin/moderators/${encodeURIComponent(userId)}`;
  if (on) await apiPost<unknown>(path, { reason });
  else await apiDelete<unknown>(path);
}

export async function fetchAudit(cursor?: string | null): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const data = await apiGet<unknown>(cursor ? `/admin/audit?limit=50&cursor=${encodeURIComponent(cursor)}` : '/admin/audit?limit=50');
  const entries: AuditEntry[] = [];
  if (isRecord(data) && Array.isArray(data.entries)) {
    for (const e of data.entries) {
      if (!isRecord(e)) continue;
      entries.push({
        id: str(e.id),
        action: str(e.action),
        actorName: str(e.actorName),
        itemType: str(e.itemType),
        targetName: str(e.targetName),
        reason: str(e.reason),
        snapshot: str(e.snapshot),
        createdAt: str(e.createdAt),
      });
    }
  }
  const next = isRecord(data) && typeof data.nextCursor === 'string' && data.nextCursor ? data.nextCursor : null;
  return { entries, nextCursor: next };
}
