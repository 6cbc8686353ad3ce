// The realtime connection's wiring into the app: api/socket keeps the
// connection and hands over each server frame; here each frame becomes the
// features' store updates, the socket's status goes into the store, the
// posts on screen (posts/watchAtoms) are what it watches, and after a
// reconnect what may have been missed is read again over REST (REST is the
// truth; frames only bring news early).

import type { createStore } from 'jotai';
import type { PostCounts, ServerFrame } from '../api/protocol';
import { SocketClient, type SocketClientOptions } from '../api/socket';
import { postAnnouncedAtom } from '../features/feed/feedAtoms';
import {
  friendAcceptedAtom,
  friendRemovedAtom,
  friendRequestReceivedAtom,
  refreshPendingRequestsAtom,
} from '../features/friends/friendsAtoms';
import { setUnreadMessagesAtom } from '../features/messages/unread';
import { toAppNotification } from '../features/notifications/model';
import {
  addNotificationAtom,
  notificationsReconnectedAtom,
  setUnreadCountAtom,
} from '../features/notifications/notificationsAtoms';
import { fetchPost } from '../features/posts/postsApi';
import {
  applyPostCountsAtom,
  applyPostEditedAtom,
  removePostAtom,
  upsertPostsAtom,
} from '../features/posts/postsAtoms';
import { watchedPostIdsAtom } from '../features/posts/watchAtoms';
import {
  recordServerEventAtom,
  recordTestResponseAtom,
  setSocketSenderAtom,
  setSocketStatusAtom,
} from '../features/realtime/realtimeAtoms';

export type Store = ReturnType<typeof createStore>;

type MessagesStore = typeof import('../features/messages/MessagesPage');

// The messages store is not part of the first screen (issue 16's budget): it
// comes with the messages screens' chunk, loaded by the first message event
// or by opening them. Frames wait for it in order (each is chained on the
// same promise); only the unread total, which the bars show, applies at once.
let messagesStore: Promise<MessagesStore> | null = null;

/** The messages store, loading it the first time. */
export function loadMessagesStore(): Promise<MessagesStore> {
  messagesStore ??= import('../features/messages/MessagesPage').catch((err: unknown) => {
    messagesStore = null; // offline, a deploy: the next event asks again
    throw err;
  });
  return messagesStore;
}

function withMessages(fn: (m: MessagesStore) => void): void {
  void loadMessagesStore().then(fn, (err: unknown) => console.warn('Messages could not load', err));
}

/** Most posts whose counts are re-fetched after a reconnect (the ones on screen are few). */
const MAX_REFETCH = 50;

/** Writes one server event into the store. */
export function handleServerFrame(store: Store, frame: ServerFrame): void {
  store.set(recordServerEventAtom, frame);
  switch (frame.event) {
    case 'ready':
      store.set(setUnreadCountAtom, Number(frame.data.unreadCount) || 0);
      if (typeof frame.data.unreadMessages === 'number') store.set(setUnreadMessagesAtom, frame.data.unreadMessages);
      break;
    case 'message:new':
    case 'message:updated': {
      const { conversationId, message } = frame.data;
      const isNew = frame.event === 'message:new';
      if (typeof conversationId === 'string') withMessages((m) => store.set(m.applyMessageFrameAtom, { conversationId, message, isNew }));
      break;
    }
    case 'message:read': {
      const { conversationId, userId, seq, unreadTotal } = frame.data;
      if (typeof conversationId === 'string' && typeof userId === 'string' && typeof seq === 'number') {
        const total = typeof unreadTotal === 'number' ? unreadTotal : undefined;
        withMessages((m) => store.set(m.applyReadFrameAtom, { conversationId, userId, seq, unreadTotal: total }));
      }
      break;
    }
    case 'typing': {
      const { conversationId, userId, name } = frame.data;
      if (typeof conversationId === 'string' && typeof userId === 'string') {
        const who = typeof name === 'string' ? name : '';
        withMessages((m) => store.set(m.applyTypingFrameAtom, { conversationId, userId, name: who }));
      }
      break;
    }
    case 'conversation:updated': {
      const { conversation } = frame.data;
      withMessages((m) => store.set(m.applyConversationFrameAtom, conversation));
      break;
    }
    case 'conversation:removed': {
      const { conversationId } = frame.data;
      if (typeof conversationId === 'string') withMessages((m) => store.set(m.applyConversationRemovedAtom, conversationId));
      break;
    }
    case 'notification': {
      const unread = typeof frame.data.unreadCount === 'number' ? frame.data.unreadCount : undefined;
      store.set(addNotificationAtom, toAppNotification(frame.data), unread);
      break;
    }
    case 'friend:request':
      store.set(friendRequestReceivedAtom);
      break;
    case 'post:counts':
      if (Array.isArray(frame.data.posts)) {
        store.set(applyPostCountsAtom, frame.data.posts.filter(isPostCounts));
      }
      break;
    case 'post:deleted':
      if (typeof frame.data.postId === 'string') store.set(removePostAtom, frame.data.postId);
      break;
    case 'post:new':
      if (typeof frame.data.postId === 'string') store.set(postAnnouncedAtom, frame.data.postId);
      break;
    case 'post:edited':
      if (typeof frame.data.postId === 'string' && typeof frame.data.content === 'string') {
        store.set(applyPostEditedAtom, {
          postId: frame.data.postId,
          content: frame.data.content,
          images: Array.isArray(frame.data.images) ? frame.data.images : undefined,
          updatedAt: typeof frame.data.updatedAt === 'string' ? frame.data.updatedAt : '',
          mentions: Array.isArray(frame.data.mentions) ? frame.data.mentions : [],
        });
      }
      break;
    case 'friend:removed':
      if (typeof frame.data.userId === 'string') {
        store.set(friendRemovedAtom, {
          userId: frame.data.userId,
          requestId: typeof frame.data.requestId === 'string' ? frame.data.requestId : undefined,
        });
      }
      break;
    case 'test:response':
      store.set(recordTestResponseAtom, Date.now());
      break;
    case 'error':
      console.warn('Realtime server error:', frame.data.message);
      break;
    case 'friend:accept':
      store.set(friendAcceptedAtom);
      break;
    case 'post:like':
    case 'post:comment':
      // Personal events: the matching `notification` frame updates the bell;
      // features that care read lastServerEventAtom.
      break;
  }
}

/** Whether a `post:counts` entry is well formed; a bad one is skipped, never thrown on. */
function isPostCounts(v: unknown): v is PostCounts {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.postId === 'string' &&
    typeof e.likesCount === 'number' &&
    typeof e.commentsCount === 'number' &&
    (e.countsVersion === undefined || typeof e.countsVersion === 'number')
  );
}

/** Re-fetches the posts on screen after a reconnect: counts and the viewer's isLiked. */
export async function refetchPosts(store: Store, ids: readonly string[]): Promise<void> {
  await Promise.all(
    ids.slice(0, MAX_REFETCH).map(async (id) => {
      try {
        const { post } = await fetchPost(id);
        store.set(upsertPostsAtom, [post]);
      } catch (err) {
        if (err instanceof Error && 'status' in err && (err as { status: number }).status === 404) {
          store.set(removePostAtom, id);
        }
      }
    }),
  );
}

export interface RealtimeOptions
  extends Pick<SocketClientOptions, 'token' | 'onAuthError' | 'WebSocketImpl' | 'url' | 'random'> {
  /** After a reconnect, with the posts on screen (never none). Default: refetchPosts. */
  refetch?: (postIds: string[]) => void;
}

/** A socket (not started) whose frames and status go into store, watching the posts on screen there. */
export function realtimeClient(store: Store, opts: RealtimeOptions): SocketClient {
  const { refetch = (ids: string[]) => void refetchPosts(store, ids), ...socket } = opts;
  const client = new SocketClient({
    ...socket,
    onFrame: (frame) => handleServerFrame(store, frame),
    onStatus: (status) => store.set(setSocketStatusAtom, status),
    onReconnect: () => {
      store.set(notificationsReconnectedAtom);
      // The open thread's gap and the list (a store with nothing loaded does nothing).
      withMessages((m) => store.set(m.messagesReconnectedAtom));
      void store.set(refreshPendingRequestsAtom);
      const ids = store.get(watchedPostIdsAtom);
      if (ids.length > 0) refetch(ids);
    },
    watchedPostIds: () => store.get(watchedPostIdsAtom),
    subscribeWatched: (fn) => store.sub(watchedPostIdsAtom, fn),
  });
  // Features send ephemeral frames (typing) through the store, never the socket itself.
  store.set(setSocketSenderAtom, (event, data) => client.send(event, data));
  return client;
}
