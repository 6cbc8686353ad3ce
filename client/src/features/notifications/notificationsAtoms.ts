// Notification state (spec §3 client form, §4 Notifications). This issue
// needs the unread count for the bell and the live additions from the
// socket; the panel, listing and mark-as-read calls build on these atoms.

import { atom } from 'jotai';
import { isRecord, normalizeImage, str } from '../../api/models';
import type { ServerNotification } from '../../api/protocol';

export type NotificationType = 'friend_request' | 'like' | 'comment' | 'system';

/** The client form of a notification (spec §3). */
export interface AppNotification {
  id: string;
  type: NotificationType;
  message: string;
  timestamp: string;
  read: boolean;
  userId: string;
  postId: string;
  avatar: string;
}

const TYPE_MAP: Record<string, NotificationType> = {
  friend_request: 'friend_request',
  like: 'like',
  comment: 'comment',
};

/** Server form → client form, with a readable message. */
export function toAppNotification(n: ServerNotification | Record<string, unknown>): AppNotification {
  const r = n as Record<string, unknown>;
  const sender = isRecord(r.sender) ? r.sender : {};
  const name = str(sender.name) || 'Someone';
  const serverType = str(r.type);
  const type = TYPE_MAP[serverType] ?? 'system';
  const fallback: Record<string, string> = {
    friend_request: `${name} sent you a friend request`,
    friend_accepted: `${name} accepted your friend request`,
    like: `${name} liked your post`,
    comment: `${name} commented on your post`,
  };
  return {
    id: str(r.id) || str(r._id),
    type,
    message: str(r.message) || fallback[serverType] || 'You have a new notification',
    timestamp: str(r.createdAt) || new Date().toISOString(),
    read: r.isRead === true,
    userId: str(sender.id) || str(sender._id),
    postId: isRecord(r.post) ? str(r.post.id) || str(r.post._id) : '',
    avatar: normalizeImage(sender.avatar).url,
  };
}

const notificationsBaseAtom = atom<AppNotification[]>([]);
const unreadCountBaseAtom = atom(0);
const panelOpenBaseAtom = atom(false);

export const notificationsAtom = atom((get) => get(notificationsBaseAtom));
export const unreadCountAtom = atom((get) => get(unreadCountBaseAtom));
export const notificationsPanelOpenAtom = atom((get) => get(panelOpenBaseAtom));

export const setUnreadCountAtom = atom(null, (_get, set, n: number) => {
  set(unreadCountBaseAtom, Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
});

export const setNotificationsAtom = atom(null, (_get, set, list: AppNotification[]) => {
  set(notificationsBaseAtom, list);
});

/**
 * Spec §4: a notification received live is added at the top as unread and
 * increments the count — unless the server said what the count now is.
 */
export const addNotificationAtom = atom(null, (get, set, n: AppNotification, serverUnread?: number) => {
  const list = get(notificationsBaseAtom);
  if (n.id && list.some((x) => x.id === n.id)) return;
  set(notificationsBaseAtom, [{ ...n, read: false }, ...list]);
  set(setUnreadCountAtom, typeof serverUnread === 'number' ? serverUnread : get(unreadCountBaseAtom) + 1);
});

export const openNotificationsPanelAtom = atom(null, (_get, set, open: boolean) => {
  set(panelOpenBaseAtom, open);
});
