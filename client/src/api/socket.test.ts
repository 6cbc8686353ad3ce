// The connection itself, with handlers that record what it reports: its
// wiring into the store is app/realtime's (and app/realtime.test's).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRedirect } from '../lib/redirect';
import { FakeWebSocket } from '../test/fakeWebSocket';
import type { ServerFrame } from './protocol';
import { backoffDelay, restartDelay, RESTART_SPREAD_MS, SocketClient, socketUrl, type SocketClientOptions, type SocketStatus } from './socket';

function setup(opts: Partial<SocketClientOptions> = {}) {
  const statuses: SocketStatus[] = [];
  const frames: ServerFrame[] = [];
  // The posts on screen, as the owner keeps them.
  let watched: string[] = [];
  const subscribers = new Set<() => void>();
  const onReconnect = vi.fn();
  const client = new SocketClient({
    token: 'tok en',
    WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
    random: () => 0,
    onFrame: (f) => frames.push(f),
    onStatus: (s) => statuses.push(s),
    onReconnect,
    watchedPostIds: () => watched,
    subscribeWatched: (fn) => {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    ...opts,
  });
  const watch = (ids: string[]) => {
    watched = ids;
    for (const fn of subscribers) fn();
  };
  return { client, statuses, frames, onReconnect, watch, subscribers, status: () => statuses[statuses.length - 1] };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('connection', () => {
  it('connects to /api/ws on this origin, sends the token in the first frame, and reports its status', () => {
    expect(socketUrl({ protocol: 'https:', host: 'campus.edu' })).toBe('wss://campus.edu/api/ws');
    expect(socketUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/api/ws');
    const { client, statuses, subscribers, watch } = setup();
    watch(['p1']);
    client.start();
    // The token never goes in the URL (proxies and access logs keep URLs).
    expect(FakeWebSocket.last().url).toBe(`ws://${window.location.host}/api/ws`);
    expect(FakeWebSocket.last().url).not.toContain('tok');
    expect(statuses).toEqual(['connecting']);
    expect(subscribers.size).toBe(1);
    expect(FakeWebSocket.last().frames()).toEqual([]); // nothing before the socket opens
    FakeWebSocket.last().open();
    expect(statuses).toEqual(['connecting', 'open']);
    // auth first, then everything else.
    expect(FakeWebSocket.last().frames()).toEqual([
      { event: 'auth', data: { token: 'tok en' } },
      { event: 'watch', data: { postIds: ['p1'] } },
    ]);
    client.stop();
    expect(FakeWebSocket.last().closedWith?.code).toBe(1000);
    expect(statuses).toEqual(['connecting', 'open', 'idle']);
    expect(subscribers.size).toBe(0);
  });

  it('sends test 3 s after connecting and hands over the answer', () => {
    const { client, frames } = setup();
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    vi.advanceTimersByTime(2999);
    expect(ws.framesAfterAuth()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ws.framesAfterAuth()).toEqual([{ event: 'test', data: {} }]);
    ws.receive('test:response', { ok: true });
    expect(frames).toEqual([{ event: 'test:response', data: { ok: true } }]);
    client.stop();
  });

  it('gives up on a connection that does not open within 10 s and retries', () => {
    const { client } = setup();
    client.start();
    const first = FakeWebSocket.last();
    vi.advanceTimersByTime(10_000);
    expect(first.closedWith).not.toBeNull();
    vi.advanceTimersByTime(backoffDelay(0, () => 0));
    expect(FakeWebSocket.instances).toHaveLength(2);
    client.stop();
  });

  it('reconnects with growing backoff, re-watches, and tells its owner after reconnecting', () => {
    const { client, watch, onReconnect, status } = setup();
    watch(['p1']);
    client.start();
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    expect(onReconnect).not.toHaveBeenCalled();

    FakeWebSocket.last().serverClose(1006);
    expect(status()).toBe('reconnecting');
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);

    // Fails again before opening: the next wait doubles.
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(1999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    // Each new socket authenticates again with its own first frame.
    expect(FakeWebSocket.last().frames()[0]).toEqual({ event: 'auth', data: { token: 'tok en' } });
    expect(FakeWebSocket.instances.every((ws) => !ws.url.includes('token'))).toBe(true);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    client.stop();
  });

  it.each([
    [1012, 'service restart'],
    [1001, 'going away'],
  ])('on close %i (%s) reconnects within the jittered restart window and re-watches', (code) => {
    const onAuthError = vi.fn();
    localStorage.setItem('campus.token', 'tok');
    const { client, watch, onReconnect, status } = setup({ onAuthError, random: () => 0.5 });
    watch(['p1']);
    client.start();
    FakeWebSocket.last().open();
    // Earlier failures grew the backoff; a drain starts it over.
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(backoffDelay(0, () => 0.5));
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(backoffDelay(1, () => 0.5));
    expect(FakeWebSocket.instances).toHaveLength(3);
    FakeWebSocket.last().open();
    expect(onReconnect).toHaveBeenCalledTimes(1);

    FakeWebSocket.last().serverClose(code, 'Service restart: reconnect');
    expect(status()).toBe('reconnecting');
    // Not an auth failure: the saved token stays.
    expect(onAuthError).not.toHaveBeenCalled();
    expect(localStorage.getItem('campus.token')).toBe('tok');
    vi.advanceTimersByTime(restartDelay(() => 0.5) - 1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(4);
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    expect(onReconnect).toHaveBeenCalledTimes(2);
    client.stop();
  });

  it('spreads restart reconnects over the whole window', () => {
    expect(restartDelay(() => 0)).toBe(0);
    expect(restartDelay(() => 0.5)).toBe(RESTART_SPREAD_MS / 2);
    expect(restartDelay(() => 0.999)).toBeLessThan(RESTART_SPREAD_MS);
  });

  it('after a reconnect resumes from the newest notification seen, and skips the one it already has', () => {
    const { client, frames } = setup();
    const notices = () => frames.filter((f) => f.event === 'notification').map((f) => f.data);
    client.start();
    FakeWebSocket.last().open();
    const older = { id: 'n1', type: 'comment', updatedAt: '2026-11-24T10:00:00.000001Z', unreadCount: 2 };
    const newest = { id: 'n2', type: 'comment', updatedAt: '2026-11-24T10:00:05Z', unreadCount: 2 };
    FakeWebSocket.last().receive('notification', newest);
    FakeWebSocket.last().receive('notification', older); // a roll-up's late frame does not move the cursor back
    expect(FakeWebSocket.last().frames().filter((f) => f.event === 'resume')).toEqual([]);
    expect(notices()).toEqual([newest, older]);

    FakeWebSocket.last().serverClose(1012);
    vi.advanceTimersByTime(RESTART_SPREAD_MS);
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'resume', data: { since: newest.updatedAt } });

    // The replay starts with the one already seen: not handed over again.
    FakeWebSocket.last().receive('notification', { ...newest, unreadCount: 9 });
    expect(notices()).toEqual([newest, older]);
    const missed = { id: 'n3', type: 'comment', updatedAt: '2026-11-24T10:01:00Z', unreadCount: 3 };
    FakeWebSocket.last().receive('notification', missed);
    expect(notices()).toEqual([newest, older, missed]);
    client.stop();
  });

  it('caps the backoff at 30 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(1000);
    expect(backoffDelay(3, () => 0)).toBe(8000);
    expect(backoffDelay(20, () => 0)).toBe(30_000);
    expect(backoffDelay(20, () => 1)).toBe(21_000);
  });

  it('on close code 1008 clears saved auth and goes to /login, without reconnecting', () => {
    const redirects: string[] = [];
    const restore = setRedirect((p) => redirects.push(p));
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', '{"user":{"id":"u1"}}');
    const { client } = setup();
    client.start();
    FakeWebSocket.last().open();
    FakeWebSocket.last().serverClose(1008, 'invalid token');
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(localStorage.getItem('campus.auth')).toBeNull();
    expect(redirects).toEqual(['/login']);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    restore();
  });

  it('hands over only well-formed frames of known events', () => {
    const { client, frames } = setup();
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    ws.receiveRaw('not json');
    ws.receive('mystery', {});
    ws.receive('post:deleted', { postId: 'p1' });
    expect(frames).toEqual([{ event: 'post:deleted', data: { postId: 'p1' } }]);
    client.stop();
  });
});

describe('watch / unwatch', () => {
  it('sends the difference when the posts on screen change, once per burst', () => {
    const { client, watch } = setup();
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    watch(['a']);
    watch(['a', 'b']);
    vi.advanceTimersByTime(50);
    expect(ws.framesAfterAuth()).toEqual([{ event: 'watch', data: { postIds: ['a', 'b'] } }]);

    watch(['b', 'a']); // the same posts: nothing new
    vi.advanceTimersByTime(50);
    expect(ws.framesAfterAuth()).toHaveLength(1);

    watch(['b', 'c']);
    vi.advanceTimersByTime(50);
    expect(ws.framesAfterAuth().slice(1)).toEqual([
      { event: 'unwatch', data: { postIds: ['a'] } },
      { event: 'watch', data: { postIds: ['c'] } },
    ]);
    client.stop();
  });
});
