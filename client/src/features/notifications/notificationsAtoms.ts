// Notification state (docs/product.md §3 client form, §4 Notifications): the list, the
// unread count behind the bell, the panel's visibility, and the operations
// markAsRead, markAllAsRead, addNotification, clearNotification and
// refreshNotifications. The socket's frames write live arrivals and the count
// in (app/realtime).
// Primitive atoms stay private.

import { atom } from 'jotai';
import { isNoAnswer } from '../../api/http';
import { readOffline, saveOffline, signedInUserId } from '../../lib/offlineCache';
import { toAppNotification, type AppNotification } from './model';
import {
  deleteNotification,
  fetchNotifications,
  markAllNotificationsRead,
  markNotificationsRead,
} from './notificationsApi';

export { toAppNotification };
export type { AppNotification };

/** 'offline': no server answered; the list is the one last read (notificationsOfflineSavedAtAtom). */
export type NotificationsStatus = 'idle' | 'loading' | 'ready' | 'error' | 'offline';

const notificationsBaseAtom = atom<AppNotification[]>([]);
const unreadCountBaseAtom = atom(0);
const panelOpenBaseAtom = atom(false);
const statusBaseAtom = atom<NotificationsStatus>('idle');
const cursorBaseAtom = atom<string | null>(null);
const loadingMoreBaseAtom = atom(false);
/** Bumped by each refresh, so an older answer cannot overwrite a newer one. */
const generationAtom = atom(0);
/** When the list shown offline was read (ISO); '' when it is live. */
const offlineSavedAtBaseAtom = atom('');
export const notificationsOfflineSavedAtAtom = atom((get) => get(offlineSavedAtBaseAtom));

export const notificationsAtom = atom((get) => get(notificationsBaseAtom));
export const unreadCountAtom = atom((get) => get(unreadCountBaseAtom));
export const notificationsPanelOpenAtom = atom((get) => get(panelOpenBaseAtom));
export const notificationsStatusAtom = atom((get) => get(statusBaseAtom));
export const notificationsHasMoreAtom = atom((get) => get(cursorBaseAtom) !== null);
export const notificationsLoadingMoreAtom = atom((get) => get(loadingMoreBaseAtom));

export const setUnreadCountAtom = atom(null, (_get, set, n: number) => {
  set(unreadCountBaseAtom, Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
});

export const setNotificationsAtom = atom(null, (_get, set, list: AppNotification[]) => {
  set(notificationsBaseAtom, list);
});

/**
 * docs/product.md §4: a notification received live is added at the top as unread and
 * increments the count — unless the server said what the count now is. A
 * like roll-up that is already listed (same id: more people liked the post)
 * is replaced by its new state and moves to the top, the server's order;
 * it counts again only if it had been read.
 */
export const addNotificationAtom = atom(null, (get, set, n: AppNotification, serverUnread?: number) => {
  const list = get(notificationsBaseAtom);
  const existing = n.id ? list.find((x) => x.id === n.id) : undefined;
  const rest = existing ? list.filter((x) => x.id !== n.id) : list;
  set(notificationsBaseAtom, [{ ...n, read: false }, ...rest]);
  const counted = existing !== undefined && !existing.read;
  set(
    setUnreadCountAtom,
    typeof serverUnread === 'number' ? serverUnread : get(unreadCountBaseAtom) + (counted ? 0 : 1),
  );
});

/**
 * Re-reads the first page (panel opened, reconnect). Items that arrived live
 * while the call was in flight and are newer than the page stay on top.
 */
export const refreshNotificationsAtom = atom(null, async (get, set) => {
  const gen = get(generationAtom) + 1;
  set(generationAtom, gen);
  if (get(notificationsBaseAtom).length === 0) set(statusBaseAtom, 'loading');
  try {
    const page = await fetchNotifications(null);
    if (get(generationAtom) !== gen) return;
    const ids = new Set(page.items.map((n) => n.id));
    const newest = page.items[0]?.timestamp ?? '';
    const liveOnly = get(notificationsBaseAtom).filter((n) => !ids.has(n.id) && n.timestamp > newest);
    set(notificationsBaseAtom, [...liveOnly, ...page.items]);
    set(setUnreadCountAtom, page.unreadCount + liveOnly.filter((n) => !n.read).length);
    set(cursorBaseAtom, page.nextCursor);
    set(offlineSavedAtBaseAtom, '');
    set(statusBaseAtom, 'ready');
    // Kept for reading offline: the first page, as read.
    saveOffline(signedInUserId(), 'notifications', page.items);
  } catch (err) {
    if (get(generationAtom) !== gen) return;
    console.warn('Notifications failed to load', err);
    if (get(notificationsBaseAtom).length > 0) {
      if (get(statusBaseAtom) !== 'offline') set(statusBaseAtom, 'ready');
      return;
    }
    const kept = isNoAnswer(err) ? readOffline<AppNotification[]>(signedInUserId(), 'notifications') : null;
    if (kept && Array.isArray(kept.data) && kept.data.length > 0) {
      set(notificationsBaseAtom, kept.data);
      set(cursorBaseAtom, null);
      set(offlineSavedAtBaseAtom, kept.savedAt);
      set(statusBaseAtom, 'offline');
      return;
    }
    set(statusBaseAtom, isNoAnswer(err) ? 'offline' : 'error');
  }
});

export const loadMoreNotificationsAtom = atom(null, async (get, set) => {
  const cursor = get(cursorBaseAtom);
  if (cursor === null || get(loadingMoreBaseAtom)) return;
  const gen = get(generationAtom);
  set(loadingMoreBaseAtom, true);
  try {
    const page = await fetchNotifications(cursor);
    if (get(generationAtom) !== gen) return;
    const have = new Set(get(notificationsBaseAtom).map((n) => n.id));
    set(notificationsBaseAtom, [...get(notificationsBaseAtom), ...page.items.filter((n) => !have.has(n.id))]);
    set(cursorBaseAtom, page.nextCursor);
  } catch (err) {
    console.error('Loading more notifications failed', err);
  } finally {
    set(loadingMoreBaseAtom, false);
  }
});

/**
 * docs/product.md §4: one notification unread → read; the count goes down by one,
 * never below zero. Already-read items change nothing.
 */
export const markAsReadAtom = atom(null, async (get, set, id: string) => {
  const list = get(notificationsBaseAtom);
  const item = list.find((n) => n.id === id);
  if (!item || item.read) return;
  set(
    notificationsBaseAtom,
    list.map((n) => (n.id === id ? { ...n, read: true } : n)),
  );
  set(setUnreadCountAtom, Math.max(0, get(unreadCountBaseAtom) - 1));
  try {
    await markNotificationsRead([id]);
  } catch (err) {
    console.error('Mark as read failed', err); // the next refresh shows the truth
  }
});

/** docs/product.md §4: every notification read; the count is zero. */
export const markAllAsReadAtom = atom(null, async (get, set) => {
  set(
    notificationsBaseAtom,
    get(notificationsBaseAtom).map((n) => (n.read ? n : { ...n, read: true })),
  );
  set(setUnreadCountAtom, 0);
  try {
    await markAllNotificationsRead();
  } catch (err) {
    console.error('Mark all as read failed', err);
  }
});

/** docs/product.md §2.11: the delete button clears one notification (an unread one lowers the count). */
export const clearNotificationAtom = atom(null, async (get, set, id: string) => {
  const list = get(notificationsBaseAtom);
  const item = list.find((n) => n.id === id);
  if (!item) return;
  set(
    notificationsBaseAtom,
    list.filter((n) => n.id !== id),
  );
  if (!item.read) set(setUnreadCountAtom, Math.max(0, get(unreadCountBaseAtom) - 1));
  try {
    await deleteNotification(id);
  } catch (err) {
    console.error('Clearing the notification failed', err);
  }
});

/** Opens (and re-reads) or closes the panel. */
export const openNotificationsPanelAtom = atom(null, (_get, set, open: boolean) => {
  set(panelOpenBaseAtom, open);
  if (open) void set(refreshNotificationsAtom);
});

/** After a reconnect (docs/protocol.md §2.6: REST is the truth): re-read what may have been missed. */
export const notificationsReconnectedAtom = atom(null, (_get, set) => {
  void set(refreshNotificationsAtom);
});
