// Notifications in the client form (docs/product.md §3), converted from the server form
// that both GET /api/notifications and the socket's `notification` event carry.

import { isRecord, normalizeImage, str } from '../../api/models';
import type { ServerNotification } from '../../api/protocol';

export type NotificationType =
  | 'friend_request'
  | 'like'
  | 'comment'
  | 'mention'
  | 'group_join_request'
  | 'group_join_approved'
  | 'group_invitation'
  | 'group_post'
  | 'repost'
  | 'system';

/** The group a group notification is about (issue 18). */
export interface NotificationGroup {
  id: string;
  handle: string;
  name: string;
}

/** The client form of a notification (docs/product.md §3). */
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
  /**
   * A like roll-up's newest likers, newest first (the sender alone for other
   * kinds), and how many people it stands for.
   */
  actors: NotificationActor[];
  actorCount: number;
  /** The start of the post's text, when the server sent it. */
  postSnippet: string;
  /** The group of a group notification; null for the others. */
  group: NotificationGroup | null;
}

export interface NotificationActor {
  id: string;
  name: string;
  avatar: string;
}

/** 1239 → "1,239". */
export function thousands(n: number): string {
  return Math.floor(n).toLocaleString('en-US');
}

/**
 * Who did it, worded like a mature social network (the server's wording):
 * "Asha", "Asha and Ben", "Asha and 1 other", "Asha and 1,239 others";
 * "Someone" or "5 people" when no name is left.
 */
export function rollupActors(names: string[], count: number): string {
  const total = Math.max(count, names.length);
  const [first, second] = names;
  if (first === undefined) return total <= 1 ? 'Someone' : `${thousands(total)} people`;
  if (total <= 1) return first;
  if (total === 2) return second !== undefined ? `${first} and ${second}` : `${first} and 1 other`;
  return `${first} and ${thousands(total - 1)} others`;
}

function actorOf(v: unknown): NotificationActor | null {
  if (!isRecord(v)) return null;
  const id = str(v.id) || str(v._id);
  if (!id) return null;
  return { id, name: str(v.name), avatar: normalizeImage(v.avatar).url };
}

const TYPE_MAP: Record<string, NotificationType> = {
  friend_request: 'friend_request',
  like: 'like',
  comment: 'comment',
  mention: 'mention',
  group_join_request: 'group_join_request',
  group_join_approved: 'group_join_approved',
  group_invitation: 'group_invitation',
  group_post: 'group_post',
  repost: 'repost',
};

function groupOf(v: unknown): NotificationGroup | null {
  if (!isRecord(v)) return null;
  const g = { id: str(v.id) || str(v._id), handle: str(v.handle), name: str(v.name) };
  return g.handle ? { ...g, name: g.name || g.handle } : null;
}

/** Server form → client form, with a readable message. */
export function toAppNotification(n: ServerNotification | Record<string, unknown>): AppNotification {
  const r = n as Record<string, unknown>;
  const listed = Array.isArray(r.actors) ? r.actors.map(actorOf).filter((a): a is NotificationActor => a !== null) : [];
  const senderActor = actorOf(r.sender);
  const actors = listed.length > 0 ? listed : senderActor ? [senderActor] : [];
  const newest = actors[0];
  const sender = isRecord(r.sender) ? r.sender : {};
  const senderName = newest?.name ?? str(sender.name);
  const name = senderName || 'Someone';
  const actorCount = Math.max(typeof r.actorCount === 'number' && Number.isFinite(r.actorCount) ? r.actorCount : 1, actors.length, 1);
  const serverType = str(r.type);
  const type = TYPE_MAP[serverType] ?? 'system';
  const group = groupOf(r.group);
  const groupName = group?.name ?? 'a group';
  const fallback: Record<string, string> = {
    group_join_request: `${name} asked to join ${groupName}`,
    group_join_approved: `Your request to join ${groupName} was approved`,
    group_invitation: `${name} invited you to join ${groupName}`,
    group_post: `${name} posted in ${groupName}`,
    friend_request: `${name} sent you a friend request`,
    friend_accepted: `${name} accepted your friend request`,
    like: `${rollupActors(actors.map((a) => a.name || 'User'), actorCount)} liked your post`,
    comment: `${name} commented on your post`,
    profile_like: `${rollupActors(actors.map((a) => a.name || 'User'), actorCount)} liked your profile`,
    mention: `${rollupActors(actors.map((a) => a.name || 'User'), actorCount)} mentioned you`,
    repost: `${rollupActors(actors.map((a) => a.name || 'User'), actorCount)} reposted your post`,
  };
  return {
    id: str(r.id) || str(r._id),
    type,
    message: str(r.message) || fallback[serverType] || 'You have a new notification',
    // A roll-up's time is its newest like's (the list is ordered by it).
    timestamp: str(r.updatedAt) || str(r.createdAt) || new Date().toISOString(),
    read: r.isRead === true,
    userId: newest?.id ?? (str(sender.id) || str(sender._id)),
    postId: isRecord(r.post) ? str(r.post.id) || str(r.post._id) : '',
    avatar: newest?.avatar ?? normalizeImage(sender.avatar).url,
    senderName,
    actors,
    actorCount,
    postSnippet: isRecord(r.post) ? str(r.post.snippet) : '',
    group,
  };
}

/** Where clicking a notification goes (docs/product.md §2.11), or null to stay. */
export type NotificationTarget =
  | { page: 'friends'; tab: 'requests' }
  | { page: 'feed' }
  | { page: 'post'; postId: string }
  | { page: 'profile'; userId: string }
  | { page: 'group'; handle: string };

/**
 * docs/product.md §2.11: a friend_request with a userId opens friends on the requests
 * tab; a like with a postId opens the feed. Ours beyond the spec: a comment,
 * a mention or a repost (issue 27) opens its post, anything else from a person opens
 * their profile. Group notifications (issue 18) open the group, a new post in
 * it opens the post.
 */
export function notificationTarget(n: AppNotification): NotificationTarget | null {
  if (n.type === 'group_post' && n.postId) return { page: 'post', postId: n.postId };
  if (n.type.startsWith('group_') && n.group) return { page: 'group', handle: n.group.handle };
  if (n.type === 'friend_request' && n.userId) return { page: 'friends', tab: 'requests' };
  if (n.type === 'like' && n.postId) return { page: 'feed' };
  if ((n.type === 'comment' || n.type === 'mention' || n.type === 'repost') && n.postId) return { page: 'post', postId: n.postId };
  if (n.userId) return { page: 'profile', userId: n.userId };
  return null;
}
