// The realtime connection (docs/product.md §4 Real-time connection, §7.7; docs/protocol.md §2).
//
// While signed in, one WebSocket to /api/ws on this origin; the token goes in
// the first frame (`auth`), never in the URL, so it stays out of proxy and
// access logs (docs/protocol.md §2.1). It
// reconnects with exponential backoff; after a reconnect it re-watches the
// posts on screen and tells its owner, who re-fetches what may have been
// missed (REST is the truth, docs/protocol.md §2). Close code 1008 (policy violation)
// is the server's "bad token" or a broken rule (a flood of frames): the owner
// asks whether the token still holds; if not, saved auth is cleared and the
// browser goes to /login (docs/product.md §8.1), else it connects again. 1012 (a node drains for a restart) and 1001 (going
// away) are not failures: the client reconnects within RESTART_SPREAD_MS,
// spread at random so that a node's clients do not all land on the others at
// once (docs/architecture.md §4.4). A test ping goes out 3 s after connecting.
//
// The socket knows the protocol, not the features: each parsed server frame
// goes to the onFrame handler of its owner (app/realtime, which writes it
// into the store), and the posts to watch come from its owner too.

import { SOCKET_CONNECT_TIMEOUT_MS, SOCKET_TEST_PING_MS } from '../constants';
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
  type ServerFrame,
  type ServerNotification,
} from './protocol';

/** Where the connection is: idle when stopped (signed out). */
export type SocketStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

/** Backoff: 1 s, 2 s, 4 s … capped at 30 s, each with up to 30% jitter. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

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

/** The socket's URL: no token in it (the token goes in the first frame). */
export function socketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/api/ws`;
}

export interface SocketClientOptions {
  token: string;
  /** Each server frame, parsed, in order; the notification a resume starts with, already seen, is left out. */
  onFrame: (frame: ServerFrame) => void;
  /** Each change of the connection's status. */
  onStatus: (status: SocketStatus) => void;
  /** A connection opened after an earlier one (not the first): re-read what may have been missed. */
  onReconnect: () => void;
  /**
   * Close code 1008: the owner checks the token; stillSignedIn connects
   * again (with backoff) when it holds. Default: clear saved auth and go to
   * /login.
   */
  onAuthError?: (stillSignedIn: () => void) => void;
  /** The posts on screen: the ones the server should have watched. */
  watchedPostIds: () => readonly string[];
  /** Calls fn whenever watchedPostIds() may have changed; answers the unsubscribe. */
  subscribeWatched: (fn: () => void) => () => void;
  WebSocketImpl?: typeof WebSocket;
  url?: string;
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
    this.unsubscribe = this.opts.subscribeWatched(() => this.scheduleFlush());
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
    this.opts.onStatus('idle');
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
    this.opts.onStatus(this.hasConnected ? 'reconnecting' : 'connecting');
    let ws: WebSocket;
    try {
      ws = new Impl(this.opts.url ?? socketUrl());
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
      // The first frame authenticates the socket; everything else follows it.
      ws.send(encodeClientFrame('auth', { token: this.opts.token }));
      const reconnected = this.hasConnected;
      this.hasConnected = true;
      this.opts.onStatus('open');
      this.flush();
      if (reconnected) {
        // docs/architecture.md §4.4: the server replays the notifications missed since the
        // newest one seen; the REST re-read below covers a longer absence.
        if (this.lastNotice) this.send('resume', { since: this.lastNotice.updatedAt });
        // REST is the truth: the owner re-reads what may have been missed.
        this.opts.onReconnect();
      }
      this.pingTimer = setTimeout(() => this.send('test', {}), SOCKET_TEST_PING_MS);
    };

    ws.onmessage = (e: MessageEvent) => {
      if (this.ws !== ws || typeof e.data !== 'string') return;
      const frame = parseServerFrame(e.data);
      if (!frame) return;
      if (frame.event === 'ready') this.attempt = 0; // a healthy session: start backoff over
      if (frame.event === 'notification' && !this.noteNotification(frame.data)) return;
      this.opts.onFrame(frame);
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
        if (this.opts.onAuthError) {
          // 1008 is a refused token or another broken rule (a flood of
          // frames): the owner asks whether the token still holds, and
          // calls stillSignedIn, to connect again with backoff, if it does.
          this.opts.onStatus('reconnecting');
          this.opts.onAuthError(() => this.scheduleReconnect());
        } else {
          this.stop();
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
    this.opts.onStatus('reconnecting');
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
    const want = new Set(this.opts.watchedPostIds());
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
