// Notifications in the client form (spec §3), converted from the server form
// that both GET /api/notifications and the socket's `notification` event carry.

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
  /** Who it is from, for the avatar's initials ('' for system notifications). */
  senderName: string;
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
  const senderName = str(sender.name);
  const name = senderName || 'Someone';
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
    senderName,
  };
}

/** Where clicking a notification goes (spec §2.11), or null to stay. */
export type NotificationTarget =
  | { page: 'friends'; tab: 'requests' }
  | { page: 'feed' }
  | { page: 'post'; postId: string }
  | { page: 'profile'; userId: string };

/**
 * Spec §2.11: a friend_request with a userId opens friends on the requests
 * tab; a like with a postId opens the feed. Ours beyond the spec: a comment
 * opens its post, anything else from a person opens their profile.
 */
export function notificationTarget(n: AppNotification): NotificationTarget | null {
  if (n.type === 'friend_request' && n.userId) return { page: 'friends', tab: 'requests' };
  if (n.type === 'like' && n.postId) return { page: 'feed' };
  if (n.type === 'comment' && n.postId) return { page: 'post', postId: n.postId };
  if (n.userId) return { page: 'profile', userId: n.userId };
  return null;
}
