// The realtime protocol of docs/protocol.md §2, in one place. Frames are JSON text:
// {"event":"name","data":{…}}.

/** Who did something, as the server sends it with personal events. */
export interface FromUser {
  id: string;
  name: string;
  avatar: { url: string } | string;
}

/**
 * A notification in the server's form (docs/product.md §3), as pushed live. Likes roll
 * up: one notification per post, re-sent with the same id as more people
 * like it — `actors` are the newest likers (newest first), `actorCount` how
 * many like the post, `updatedAt` the newest like's time.
 */
export interface ServerNotification {
  id: string;
  /**
   * profile_like (issue 16) rolls up like `like`: one per person, its actors the newest likers.
   * mention (issue 27) rolls up per post: its actors the newest people who named the
   * recipient there (in the post or its comments), actorCount how many did.
   * repost (issue 27) rolls up per post, its actors the newest reposters.
   */
  type: 'friend_request' | 'friend_accepted' | 'like' | 'comment' | 'other' | 'profile_like' | 'mention' | 'repost' | string;
  sender?: FromUser;
  actors?: FromUser[];
  actorCount?: number;
  post?: { id: string; snippet?: string };
  /** Group notifications (issue 18): group_join_request, group_join_approved, group_invitation, group_post. */
  group?: { id: string; handle: string; name: string };
  createdAt?: string;
  updatedAt?: string;
  isRead?: boolean;
  message?: string;
  unreadCount: number;
}

/** One post's live counts: an entry of a `post:counts` frame. */
export interface PostCounts {
  postId: string;
  likesCount: number;
  commentsCount: number;
  /** Issue 27: how many reposted it (absent from older servers). */
  repostsCount?: number;
  /** The post's counts version with them: the higher is the newer (absent: unknown). */
  countsVersion?: number;
}

/** Server → client events and their data. */
export interface ServerEvents {
  /** unreadMessages (issue 29): the caller's unread messages over every conversation. */
  ready: { userId: string; unreadCount: number; unreadMessages?: number };
  'friend:request': { fromUser: FromUser };
  'friend:accept': { fromUser: FromUser };
  /** At most one per post and 250 ms tick: the newest liker, and how many like the post. */
  'post:like': { fromUser: FromUser; postId: string; actorCount?: number };
  'post:comment': { fromUser: FromUser; postId: string };
  notification: ServerNotification;
  /**
   * One frame per socket per 250 ms tick: every watched post whose counts
   * changed since this socket's last frame (a post starts to come only once
   * it changes after the watch: its counts came with the post).
   */
  'post:counts': { posts: PostCounts[] };
  'post:deleted': { postId: string };
  /**
   * Issue 16: a friend (or this user on another device)
   * posted. Ids only; the feed's "N new posts" pill fetches the posts when
   * pressed. Not sent for authors the reader muted or shares a block with.
   */
  'post:new': { postId: string; authorId: string };
  /**
   * Issue 16: the author edited a post this socket watches or may show (a
   * friend's). `mentions` (issue 27): the people the new text names; absent for none.
   */
  'post:edited': { postId: string; content: string; images?: unknown[]; updatedAt: string; mentions?: unknown[] };
  /**
   * Issue 16: fromUser declined the viewer's request ('declined'),
   * cancelled the request they sent ('cancelled') or ended the friendship
   * ('unfriended'). userId is fromUser's id.
   */
  'friend:removed': {
    fromUser: FromUser;
    userId: string;
    requestId?: string;
    reason: 'declined' | 'cancelled' | 'unfriended' | string;
  };
  /**
   * Issue 29, messages: sent at once after the commit to every open socket of
   * every current member (the sender's other sockets too). Conversation and
   * message shapes are features/messages/model's; they are checked there.
   */
  'message:new': { conversationId: string; message: unknown };
  /** A message edited, unsent or whose reactions changed (reactions' `mine` is false in pushes). */
  'message:updated': { conversationId: string; message: unknown };
  /** A member's read pointer moved; to the reader's own other sockets with unreadTotal. */
  'message:read': { conversationId: string; userId: string; seq: number; unreadTotal?: number };
  /** Someone is typing: shown for 5 s unless renewed. Never stored. */
  typing: { conversationId: string; userId: string; name: string };
  /** Created, renamed, members changed, became read-only: as the recipient sees it. */
  'conversation:updated': { conversation: unknown };
  /** The recipient was removed, or left on another device. */
  'conversation:removed': { conversationId: string };
  'test:response': Record<string, unknown>;
  error: { message: string };
}

export type ServerEventName = keyof ServerEvents;

export type ServerFrame = {
  [K in ServerEventName]: { event: K; data: ServerEvents[K] };
}[ServerEventName];

/** Client → server events and their data. */
export interface ClientEvents {
  test: Record<string, never>;
  watch: { postIds: string[] };
  unwatch: { postIds: string[] };
  /** Only used when the token is not in the query string. */
  auth: { token: string };
  /**
   * After a reconnect: the server replays the user's notifications changed
   * at or after `since` (the newest `updatedAt` seen) as `notification` frames.
   */
  resume: { since: string };
  /** Issue 29: the user is typing in a conversation; at most one per conversation per 2 s. */
  typing: { conversationId: string };
}

export type ClientEventName = keyof ClientEvents;

export type ClientFrame = {
  [K in ClientEventName]: { event: K; data: ClientEvents[K] };
}[ClientEventName];

export const SERVER_EVENT_NAMES: readonly ServerEventName[] = [
  'ready',
  'friend:request',
  'friend:accept',
  'post:like',
  'post:comment',
  'notification',
  'post:counts',
  'post:deleted',
  'post:new',
  'post:edited',
  'friend:removed',
  'message:new',
  'message:updated',
  'message:read',
  'typing',
  'conversation:updated',
  'conversation:removed',
  'test:response',
  'error',
];

/** WebSocket close code for a policy violation: the server's answer to a bad or revoked token. */
export const CLOSE_POLICY_VIOLATION = 1008;
/** The server's node goes away (1001) or drains for a restart (1012): reconnect soon, elsewhere. */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_SERVICE_RESTART = 1012;

/** Most post ids one watch/unwatch frame carries (the server caps a connection at about 200). */
export const WATCH_BATCH = 100;

/**
 * Parses a frame from the server; null for anything that is not a known
 * event with an object payload (unknown events are ignored, never thrown on).
 */
export function parseServerFrame(text: string): ServerFrame | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const { event, data } = v as { event?: unknown; data?: unknown };
  if (typeof event !== 'string' || !(SERVER_EVENT_NAMES as readonly string[]).includes(event)) return null;
  const payload = typeof data === 'object' && data !== null ? data : {};
  return { event, data: payload } as ServerFrame;
}

export function encodeClientFrame<K extends ClientEventName>(event: K, data: ClientEvents[K]): string {
  return JSON.stringify({ event, data });
}
