// The realtime connection (docs/product.md §4 Real-time connection, §7.7; docs/protocol.md §2).
//
// While signed in, one WebSocket to /api/ws?token=… on this origin. It
// reconnects with exponential backoff; after a reconnect it re-watches the
// posts on screen and re-fetches their counts (REST is the truth, docs/protocol.md §2.6).
// Close code 1008 (policy violation) is the server's "bad token": saved auth
// is cleared and the browser goes to /login (docs/product.md §8.1). 1012 (a node drains
// for a restart) and 1001 (going away) are not failures: the client
// reconnects within RESTART_SPREAD_MS, spread at random so that a node's
// clients do not all land on the others at once (docs/architecture.md §4.7). A test ping goes out
// 3 s after connecting. Events are written into the jotai store.

import type { createStore } from 'jotai';
import { SOCKET_CONNECT_TIMEOUT_MS, SOCKET_TEST_PING_MS } from '../constants';
import { postAnnouncedAtom } from '../features/feed/feedAtoms';
import {
  friendAcceptedAtom,
  friendRemovedAtom,
  friendRequestReceivedAtom,
  refreshPendingRequestsAtom,
} from '../features/friends/friendsAtoms';
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
  setSocketStatusAtom,
} from '../features/realtime/realtimeAtoms';
import { redirectTo } from '../lib/redirect';
import { clearAuthStorage } from '../lib/storage';
import {
  CLOSE_GOING_AWAY,
  CLOSE_POLICY_VIOLATION,
  CLOSE_SERVICE_RESTART,
  encodeClientFrame,
  parseServerFrame,
  WATCH_BATCH,
  type ClientEventName,
  type ClientEvents,
  type PostCounts,
  type ServerFrame,
  type ServerNotification,
} from './protocol';

export type Store = ReturnType<typeof createStore>;

/** Backoff: 1 s, 2 s, 4 s … capped at 30 s, each with up to 30% jitter. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
/** Most posts whose counts are re-fetched after a reconnect (the ones on screen are few). */
const MAX_REFETCH = 50;

export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 - 0.3 * random()));
}

/** A drained node's clients reconnect within this window, each at a random point of it. */
export const RESTART_SPREAD_MS = 2_000;

/** Wait before reconnecting after a node's restart or going away: full jitter over RESTART_SPREAD_MS. */
export function restartDelay(random: () => number = Math.random): number {
  return Math.round(RESTART_SPREAD_MS * random());
}

export function socketUrl(token: string, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/api/ws?token=${encodeURIComponent(token)}`;
}

/** Writes one server event into the store. */
export function handleServerFrame(store: Store, frame: ServerFrame): void {
  store.set(recordServerEventAtom, frame);
  switch (frame.event) {
    case 'ready':
      store.set(setUnreadCountAtom, Number(frame.data.unreadCount) || 0);
      break;
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

export interface SocketClientOptions {
  store: Store;
  token: string;
  WebSocketImpl?: typeof WebSocket;
  url?: string;
  /** Close code 1008. Default: clear saved auth and go to /login. */
  onAuthError?: () => void;
  /** After a reconnect. Default: refetchPosts. */
  onReconnect?: (postIds: string[]) => void;
  random?: () => number;
}

export class SocketClient {
  private readonly opts: SocketClientOptions;
  private ws: WebSocket | null = null;
  private stopped = true;
  private attempt = 0;
  private hasConnected = false;
  /** The newest notification seen (its id and updatedAt): where a resume starts. */
  private lastNotice: { id: string; updatedAt: string } | null = null;
  /** Ids the server currently has as watched on this connection. */
  private sent = new Set<string>();
  private unsubscribe: (() => void) | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onOnline = () => {
    if (!this.stopped && this.ws === null) this.reconnectNow();
  };

  constructor(opts: SocketClientOptions) {
    this.opts = opts;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.opts.store.sub(watchedPostIdsAtom, () => this.scheduleFlush());
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    window.removeEventListener('online', this.onOnline);
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      this.detach(ws);
      try {
        ws.close(1000, 'signed out');
      } catch {
        // already closed
      }
    }
    this.opts.store.set(setSocketStatusAtom, 'idle');
  }

  /** Sends a frame if connected; false otherwise. */
  send<K extends ClientEventName>(event: K, data: ClientEvents[K]): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1 /* OPEN */) return false;
    ws.send(encodeClientFrame(event, data));
    return true;
  }

  private clearTimers(): void {
    clearTimeout(this.connectTimer);
    clearTimeout(this.pingTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.flushTimer);
  }

  private detach(ws: WebSocket): void {
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    ws.onerror = null;
  }

  private connect(): void {
    if (this.stopped) return;
    const Impl = this.opts.WebSocketImpl ?? WebSocket;
    this.opts.store.set(setSocketStatusAtom, this.hasConnected ? 'reconnecting' : 'connecting');
    let ws: WebSocket;
    try {
      ws = new Impl(this.opts.url ?? socketUrl(this.opts.token));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.sent = new Set();

    this.connectTimer = setTimeout(() => {
      // docs/product.md §9: give up on a connection that has not opened within 10 s.
      if (this.ws === ws && ws.readyState !== 1) this.dropAndRetry(ws);
    }, SOCKET_CONNECT_TIMEOUT_MS);

    ws.onopen = () => {
      if (this.ws !== ws) return;
      clearTimeout(this.connectTimer);
      const reconnected = this.hasConnected;
      this.hasConnected = true;
      this.opts.store.set(setSocketStatusAtom, 'open');
      this.flush();
      if (reconnected) {
        // docs/protocol.md §2.6: the server replays the notifications missed since the
        // newest one seen; the REST re-read below covers a longer absence.
        if (this.lastNotice) this.send('resume', { since: this.lastNotice.updatedAt });
        // docs/protocol.md §2.6: REST is the truth — re-read what may have been missed.
        this.opts.store.set(notificationsReconnectedAtom);
        void this.opts.store.set(refreshPendingRequestsAtom);
        const ids = this.opts.store.get(watchedPostIdsAtom);
        if (ids.length > 0) {
          if (this.opts.onReconnect) this.opts.onReconnect(ids);
          else void refetchPosts(this.opts.store, ids);
        }
      }
      this.pingTimer = setTimeout(() => this.send('test', {}), SOCKET_TEST_PING_MS);
    };

    ws.onmessage = (e: MessageEvent) => {
      if (this.ws !== ws || typeof e.data !== 'string') return;
      const frame = parseServerFrame(e.data);
      if (!frame) return;
      if (frame.event === 'ready') this.attempt = 0; // a healthy session: start backoff over
      if (frame.event === 'notification' && !this.noteNotification(frame.data)) return;
      handleServerFrame(this.opts.store, frame);
    };

    ws.onerror = () => {
      // The close event follows and decides what to do.
    };

    ws.onclose = (e: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearTimeout(this.connectTimer);
      clearTimeout(this.pingTimer);
      if (e.code === CLOSE_POLICY_VIOLATION) {
        this.stop();
        if (this.opts.onAuthError) this.opts.onAuthError();
        else {
          clearAuthStorage();
          redirectTo('/login');
        }
        return;
      }
      if (e.code === CLOSE_SERVICE_RESTART || e.code === CLOSE_GOING_AWAY) {
        // The node drains, the service is fine: back off from scratch.
        this.attempt = 0;
        this.scheduleReconnect(restartDelay(this.opts.random));
        return;
      }
      this.scheduleReconnect();
    };
  }

  /**
   * Records a notification frame's place; false for the one a resume starts
   * with, already seen (the replay starts at its updatedAt, inclusive).
   */
  private noteNotification(n: ServerNotification): boolean {
    const updatedAt = typeof n.updatedAt === 'string' ? n.updatedAt : '';
    const last = this.lastNotice;
    if (last && n.id === last.id && updatedAt === last.updatedAt) return false;
    if (updatedAt && (!last || Date.parse(updatedAt) >= Date.parse(last.updatedAt))) {
      this.lastNotice = { id: n.id, updatedAt };
    }
    return true;
  }

  private dropAndRetry(ws: WebSocket): void {
    this.detach(ws);
    try {
      ws.close();
    } catch {
      // ignore
    }
    if (this.ws === ws) this.ws = null;
    this.scheduleReconnect();
  }

  /** Reconnects after delay, by default the next step of the backoff. */
  private scheduleReconnect(delay?: number): void {
    if (this.stopped) return;
    this.opts.store.set(setSocketStatusAtom, 'reconnecting');
    if (delay === undefined) {
      delay = backoffDelay(this.attempt, this.opts.random);
      this.attempt += 1;
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private reconnectNow(): void {
    clearTimeout(this.retryTimer);
    this.connect();
  }

  private scheduleFlush(): void {
    // Several cards appear or leave in one scroll: send one frame for them all.
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => this.flush(), 50);
  }

  /** Sends watch/unwatch so the server's set equals the posts on screen. */
  private flush(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1) return;
    const want = new Set(this.opts.store.get(watchedPostIdsAtom));
    const add = [...want].filter((id) => !this.sent.has(id));
    const remove = [...this.sent].filter((id) => !want.has(id));
    for (let i = 0; i < remove.length; i += WATCH_BATCH) {
      this.send('unwatch', { postIds: remove.slice(i, i + WATCH_BATCH) });
    }
    for (let i = 0; i < add.length; i += WATCH_BATCH) {
      this.send('watch', { postIds: add.slice(i, i + WATCH_BATCH) });
    }
    this.sent = want;
  }
}
