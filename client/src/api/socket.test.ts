import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasPendingRequestsAtom } from '../features/friends/friendsAtoms';
import { notificationsAtom, unreadCountAtom } from '../features/notifications/notificationsAtoms';
import { postAtom, upsertPostsAtom } from '../features/posts/postsAtoms';
import { makePost } from '../features/posts/testPosts';
import { unwatchPostAtom, watchPostAtom } from '../features/posts/watchAtoms';
import { lastServerEventAtom, lastTestResponseAtom, socketStatusAtom } from '../features/realtime/realtimeAtoms';
import { setRedirect } from '../lib/redirect';
import { installFakeFetch, json } from '../test/fakeFetch';
import { FakeWebSocket } from '../test/fakeWebSocket';
import { backoffDelay, restartDelay, RESTART_SPREAD_MS, SocketClient, socketUrl } from './socket';

type Store = ReturnType<typeof createStore>;

function setup(opts: Partial<ConstructorParameters<typeof SocketClient>[0]> = {}) {
  const store: Store = createStore();
  const client = new SocketClient({
    store,
    token: 'tok en',
    WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
    random: () => 0,
    onReconnect: vi.fn(),
    ...opts,
  });
  return { store, client };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
  localStorage.clear();
  installFakeFetch({}); // no network: calls the socket triggers fail fast
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
});

describe('connection', () => {
  it('connects to /api/ws on this origin with the token', () => {
    expect(socketUrl('a b', { protocol: 'https:', host: 'campus.edu' })).toBe('wss://campus.edu/api/ws?token=a%20b');
    expect(socketUrl('t', { protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/api/ws?token=t');
    const { store, client } = setup();
    client.start();
    expect(FakeWebSocket.last().url).toBe(`ws://${window.location.host}/api/ws?token=tok%20en`);
    expect(store.get(socketStatusAtom)).toBe('connecting');
    FakeWebSocket.last().open();
    expect(store.get(socketStatusAtom)).toBe('open');
    client.stop();
    expect(FakeWebSocket.last().closedWith?.code).toBe(1000);
    expect(store.get(socketStatusAtom)).toBe('idle');
  });

  it('sends test 3 s after connecting', () => {
    const { store, client } = setup();
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    vi.advanceTimersByTime(2999);
    expect(ws.frames()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ws.frames()).toEqual([{ event: 'test', data: {} }]);
    ws.receive('test:response', { ok: true });
    expect(store.get(lastTestResponseAtom)).not.toBeNull();
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

  it('reconnects with growing backoff, re-watches and re-fetches after reconnecting', () => {
    const onReconnect = vi.fn();
    const { store, client } = setup({ onReconnect });
    store.set(upsertPostsAtom, [makePost({ id: 'p1' })]);
    store.set(watchPostAtom, 'p1');
    client.start();
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    expect(onReconnect).not.toHaveBeenCalled();

    FakeWebSocket.last().serverClose(1006);
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
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
    expect(onReconnect).toHaveBeenCalledWith(['p1']);
    client.stop();
  });

  it('after a reconnect re-reads the notifications and the pending requests', async () => {
    const ok = (data: unknown) => json({ status: 'success', data });
    const fetchMock = installFakeFetch({
      '/api/notifications': () =>
        ok({
          notifications: [
            { id: 'n9', type: 'comment', message: 'Ravi commented on your post', createdAt: new Date().toISOString(), isRead: false },
            { id: 'n1', type: 'like', message: 'Ravi liked your post', createdAt: '2025-01-01T00:00:00Z', isRead: false },
          ],
          pagination: { unreadCount: 4, nextCursor: null },
        }),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [{ id: 'r1', status: 'pending' }] }),
    });
    const { store, client } = setup();
    client.start();
    FakeWebSocket.last().open();
    FakeWebSocket.last().receive('notification', { id: 'n1', type: 'like', unreadCount: 1 });
    expect(fetchMock).not.toHaveBeenCalled();
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(1000);
    FakeWebSocket.last().open();
    await vi.waitFor(() => expect(store.get(unreadCountAtom)).toBe(4));
    expect(store.get(notificationsAtom).map((n) => n.id)).toEqual(['n9', 'n1']);
    expect(store.get(hasPendingRequestsAtom)).toBe(true);
    client.stop();
  });

  it.each([
    [1012, 'service restart'],
    [1001, 'going away'],
  ])('on close %i (%s) reconnects within the jittered restart window and re-watches', (code) => {
    const onReconnect = vi.fn();
    const onAuthError = vi.fn();
    localStorage.setItem('campus.token', 'tok');
    const { store, client } = setup({ onReconnect, onAuthError, random: () => 0.5 });
    store.set(upsertPostsAtom, [makePost({ id: 'p1' })]);
    store.set(watchPostAtom, 'p1');
    client.start();
    FakeWebSocket.last().open();
    // Earlier failures grew the backoff; a drain starts it over.
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(backoffDelay(0, () => 0.5));
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(backoffDelay(1, () => 0.5));
    expect(FakeWebSocket.instances).toHaveLength(3);
    FakeWebSocket.last().open();

    FakeWebSocket.last().serverClose(code, 'Service restart: reconnect');
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    // Not an auth failure: the saved token stays.
    expect(onAuthError).not.toHaveBeenCalled();
    expect(localStorage.getItem('campus.token')).toBe('tok');
    vi.advanceTimersByTime(restartDelay(() => 0.5) - 1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(4);
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    expect(onReconnect).toHaveBeenLastCalledWith(['p1']);
    client.stop();
  });

  it('spreads restart reconnects over the whole window', () => {
    expect(restartDelay(() => 0)).toBe(0);
    expect(restartDelay(() => 0.5)).toBe(RESTART_SPREAD_MS / 2);
    expect(restartDelay(() => 0.999)).toBeLessThan(RESTART_SPREAD_MS);
  });

  it('after a reconnect resumes from the newest notification seen, and skips the one it already has', () => {
    const { store, client } = setup();
    client.start();
    FakeWebSocket.last().open();
    const older = { id: 'n1', type: 'comment', updatedAt: '2026-11-24T10:00:00.000001Z', unreadCount: 2 };
    const newest = { id: 'n2', type: 'comment', updatedAt: '2026-11-24T10:00:05Z', unreadCount: 2 };
    FakeWebSocket.last().receive('notification', newest);
    FakeWebSocket.last().receive('notification', older); // a roll-up's late frame does not move the cursor back
    expect(FakeWebSocket.last().frames().filter((f) => f.event === 'resume')).toEqual([]);

    FakeWebSocket.last().serverClose(1012);
    vi.advanceTimersByTime(RESTART_SPREAD_MS);
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'resume', data: { since: newest.updatedAt } });

    // The replay starts with the one already seen: not a new notification.
    FakeWebSocket.last().receive('notification', { ...newest, unreadCount: 9 });
    expect(store.get(unreadCountAtom)).toBe(2);
    const missed = { id: 'n3', type: 'comment', updatedAt: '2026-11-24T10:01:00Z', unreadCount: 3 };
    FakeWebSocket.last().receive('notification', missed);
    expect(store.get(unreadCountAtom)).toBe(3);
    expect(store.get(notificationsAtom).map((n) => n.id)).toEqual(['n3', 'n1', 'n2']);
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
});

describe('watch / unwatch', () => {
  it('sends the difference when posts come and go', () => {
    const { store, client } = setup();
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    store.set(watchPostAtom, 'a');
    store.set(watchPostAtom, 'b');
    vi.advanceTimersByTime(50);
    expect(ws.frames()).toEqual([{ event: 'watch', data: { postIds: ['a', 'b'] } }]);

    store.set(watchPostAtom, 'a'); // the same post twice on screen: nothing new
    store.set(unwatchPostAtom, 'a'); // still once
    vi.advanceTimersByTime(50);
    expect(ws.frames()).toHaveLength(1);

    store.set(unwatchPostAtom, 'a');
    store.set(watchPostAtom, 'c');
    vi.advanceTimersByTime(50);
    expect(ws.frames().slice(1)).toEqual([
      { event: 'unwatch', data: { postIds: ['a'] } },
      { event: 'watch', data: { postIds: ['c'] } },
    ]);
    client.stop();
  });
});

describe('events into the store (docs/protocol.md §2)', () => {
  function connected() {
    const s = setup();
    s.client.start();
    FakeWebSocket.last().open();
    return { ...s, ws: FakeWebSocket.last() };
  }

  it('ready sets the unread count', () => {
    const { store, ws, client } = connected();
    ws.receive('ready', { userId: 'u1', unreadCount: 4 });
    expect(store.get(unreadCountAtom)).toBe(4);
    client.stop();
  });

  it('post:counts updates every entry’s counts and keeps the viewer’s isLiked', () => {
    const { store, ws, client } = connected();
    store.set(upsertPostsAtom, [
      makePost({ id: 'p1', isLiked: true, likesCount: 1, commentsCount: 0 }),
      makePost({ id: 'p2', isLiked: false, likesCount: 7, commentsCount: 2 }),
    ]);
    ws.receive('post:counts', {
      posts: [
        { postId: 'p1', likesCount: 250, commentsCount: 3 },
        { postId: 'p2', likesCount: 8, commentsCount: 2 },
        { postId: 'not-loaded', likesCount: 1, commentsCount: 1 },
      ],
    });
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 250, commentsCount: 3 });
    expect(store.get(postAtom('p2'))).toMatchObject({ isLiked: false, likesCount: 8, commentsCount: 2 });
    expect(store.get(postAtom('not-loaded'))).toBeUndefined();
    client.stop();
  });

  it('the old per-post count events change nothing any more', () => {
    const { store, ws, client } = connected();
    store.set(upsertPostsAtom, [makePost({ id: 'p1', likesCount: 1, commentsCount: 0 })]);
    ws.receive('post:likes', { postId: 'p1', likesCount: 250 });
    ws.receive('post:comments', { postId: 'p1', commentsCount: 3 });
    expect(store.get(postAtom('p1'))).toMatchObject({ likesCount: 1, commentsCount: 0 });
    client.stop();
  });

  it('post:deleted removes the post', () => {
    const { store, ws, client } = connected();
    store.set(upsertPostsAtom, [makePost({ id: 'p1' })]);
    ws.receive('post:deleted', { postId: 'p1' });
    expect(store.get(postAtom('p1'))).toBeUndefined();
    client.stop();
  });

  it('notification adds an unread item on top and takes the server’s count', () => {
    const { store, ws, client } = connected();
    ws.receive('notification', {
      id: 'n1',
      type: 'like',
      sender: { id: 'u2', name: 'Ravi', avatar: { url: '' } },
      post: { id: 'p1' },
      createdAt: '2025-01-01T00:00:00Z',
      isRead: false,
      unreadCount: 7,
    });
    expect(store.get(unreadCountAtom)).toBe(7);
    expect(store.get(notificationsAtom)[0]).toMatchObject({ id: 'n1', type: 'like', read: false, postId: 'p1', userId: 'u2', message: 'Ravi liked your post' });
    client.stop();
  });

  it('friend:request marks pending requests; every event is recorded', () => {
    const { store, ws, client } = connected();
    expect(store.get(hasPendingRequestsAtom)).toBe(false);
    ws.receive('friend:request', { fromUser: { id: 'u3', name: 'Mina', avatar: { url: '' } } });
    expect(store.get(hasPendingRequestsAtom)).toBe(true);
    expect(store.get(lastServerEventAtom)?.event).toBe('friend:request');
    client.stop();
  });

  it('ignores bad JSON, unknown events and malformed payloads', () => {
    const { store, ws, client } = connected();
    store.set(upsertPostsAtom, [makePost({ id: 'p1', likesCount: 5 })]);
    ws.receiveRaw('not json');
    ws.receive('mystery', {});
    ws.receive('post:counts', { posts: 'many' });
    ws.receive('post:counts', { posts: [{ postId: 'p1', likesCount: 'many', commentsCount: 1 }, null, 7] });
    expect(store.get(postAtom('p1'))!.likesCount).toBe(5);
    expect(store.get(lastServerEventAtom)?.event).toBe('post:counts');
    client.stop();
  });
});
