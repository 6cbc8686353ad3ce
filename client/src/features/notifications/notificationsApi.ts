// The notification calls (docs/product.md §7.6).

import { apiDelete, apiGet, apiPatch } from '../../api/http';
import { isRecord, num, str } from '../../api/models';
import { toAppNotification, type AppNotification } from './model';

export const NOTIFICATIONS_PAGE_SIZE = 20;

export interface NotificationsPage {
  items: AppNotification[];
  unreadCount: number;
  nextCursor: string | null;
}

export async function fetchNotifications(cursor: string | null = null, limit = NOTIFICATIONS_PAGE_SIZE): Promise<NotificationsPage> {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  const data = await apiGet<unknown>(`/notifications?${q.toString()}`);
  const r = isRecord(data) ? data : {};
  const list = Array.isArray(r.notifications) ? r.notifications : [];
  const pagination = isRecord(r.pagination) ? r.pagination : {};
  const items = list.filter(isRecord).map((n) => toAppNotification(n));
  return {
    items: items.filter((n) => n.id !== ''),
    unreadCount: typeof pagination.unreadCount === 'number' ? num(pagination.unreadCount) : items.filter((n) => !n.read).length,
    nextCursor: str(pagination.nextCursor) || null,
  };
}

export async function markNotificationsRead(ids: string[]): Promise<void> {
  await apiPatch<unknown>('/notifications/mark-as-read', { notificationIds: ids });
}

export async function markAllNotificationsRead(): Promise<void> {
  await apiPatch<unknown>('/notifications/mark-all-as-read');
}

export async function deleteNotification(id: string): Promise<void> {
  await apiDelete<unknown>(`/notifications/${encodeURIComponent(id)}`);
}
