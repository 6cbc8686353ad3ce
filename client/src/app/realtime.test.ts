// The socket wired into the store: each server frame as the features' store
// updates, the status, the posts watched, and what a reconnect re-reads.
// (The connection itself is api/socket.test's.)

import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESTART_SPREAD_MS } from '../api/socket';
import { newPostIdsAtom } from '../features/feed/feedAtoms';
import {
  friendshipVersionAtom,
  friendsListAtom,
  hasPendingRequestsAtom,
  loadAllFriendsDataAtom,
  receivedRequestsAtom,
  sentRequestsAtom,
} from '../features/friends/friendsAtoms';
import { sendTypingAtom } from '../features/messages/messageActions';
import { conversationAtom, loadConversationsAtom, readsAtom, typingAtom } from '../features/messages/messagesAtoms';
import { unreadMessagesAtom } from '../features/messages/unread';
import { notificationsAtom, unreadCountAtom } from '../features/notifications/notificationsAtoms';
import { postAtom, upsertPostsAtom } from '../features/posts/postsAtoms';
import { makePost } from '../features/posts/testPosts';
import { unwatchPostAtom, watchPostAtom } from '../features/posts/watchAtoms';
import { lastServerEventAtom, lastTestResponseAtom, socketStatusAtom } from '../features/realtime/realtimeAtoms';
import { installFakeFetch, json } from '../test/fakeFetch';
import { FakeWebSocket } from '../test/fakeWebSocket';
import type { ServerFrame } from '../api/protocol';
import { handleServerFrame, loadMessagesStore, realtimeClient, type RealtimeOptions, type Store } from './realtime';

const ok = (data: unknown) => json({ status: 'success', data });

function setup(opts: Partial<RealtimeOptions> = {}) {
  const store: Store = createStore();
  const client = realtimeClient(store, {
    token: 'tok en',
    WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket,
    random: () => 0,
    refetch: vi.fn(),
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
  it('puts its status into the store', () => {
    const { store, client } = setup();
    client.start();
    expect(store.get(socketStatusAtom)).toBe('connecting');
    FakeWebSocket.last().open();
    expect(store.get(socketStatusAtom)).toBe('open');
    FakeWebSocket.last().serverClose(1006);
    expect(store.get(socketStatusAtom)).toBe('reconnecting');
    client.stop();
    expect(store.get(socketStatusAtom)).toBe('idle');
  });

  it('records the answer to the test ping', () => {
    const { store, client } = setup();
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    vi.advanceTimersByTime(3000);
    expect(ws.framesAfterAuth()).toEqual([{ event: 'test', data: {} }]);
    expect(store.get(lastTestResponseAtom)).toBeNull();
    ws.receive('test:response', { ok: true });
    expect(store.get(lastTestResponseAtom)).not.toBeNull();
    client.stop();
  });

  it('watches the posts on screen and re-fetches them after a reconnect', () => {
    const refetch = vi.fn();
    const { store, client } = setup({ refetch });
    store.set(upsertPostsAtom, [makePost({ id: 'p1' })]);
    store.set(watchPostAtom, 'p1');
    client.start();
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    expect(refetch).not.toHaveBeenCalled();

    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(1000);
    FakeWebSocket.last().open();
    expect(FakeWebSocket.last().frames()).toContainEqual({ event: 'watch', data: { postIds: ['p1'] } });
    expect(refetch).toHaveBeenCalledWith(['p1']);

    // With no post on screen there is nothing to re-fetch.
    store.set(unwatchPostAtom, 'p1');
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(2000);
    FakeWebSocket.last().open();
    expect(refetch).toHaveBeenCalledTimes(1);
    client.stop();
  });

  it('after a reconnect re-reads the notifications and the pending requests', async () => {
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

  it('a resumed replay does not count the notification it starts with again', () => {
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
    expect(ws.framesAfterAuth()).toEqual([{ event: 'watch', data: { postIds: ['a', 'b'] } }]);

    store.set(watchPostAtom, 'a'); // the same post twice on screen: nothing new
    store.set(unwatchPostAtom, 'a'); // still once
    vi.advanceTimersByTime(50);
    expect(ws.framesAfterAuth()).toHaveLength(1);

    store.set(unwatchPostAtom, 'a');
    store.set(watchPostAtom, 'c');
    vi.advanceTimersByTime(50);
    expect(ws.framesAfterAuth().slice(1)).toEqual([
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

  it('friend:accept makes open profiles re-check their button', () => {
    const { store, ws, client } = connected();
    const v = store.get(friendshipVersionAtom);
    ws.receive('friend:accept', { fromUser: { id: 'u2', name: 'Ravi', avatar: { url: '' } } });
    expect(store.get(friendshipVersionAtom)).toBe(v + 1);
    client.stop();
  });

  it('post:new announces the post for the feed’s pill', () => {
    const { store, ws, client } = connected();
    ws.receive('post:new', { postId: 'n1', authorId: 'u2' });
    ws.receive('post:new', { postId: 7, authorId: 'u2' }); // malformed: skipped
    expect(store.get(newPostIdsAtom)).toEqual(['n1']);
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

describe('live edits and removals (issue 16)', () => {
  const me = { id: 'u1', name: 'Asha Rao', avatar: { url: '' } };
  const friend = { id: 'u2', name: 'Ravi Kumar', avatar: { url: '' } };

  it('post:edited changes the text everywhere and marks it edited', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ id: 'p1', content: 'before @asharao', mentions: [{ id: 'u1', handle: 'asharao' }] })]);
    handleServerFrame(store, {
      event: 'post:edited',
      data: { postId: 'p1', content: 'after @ravikumar', images: [], updatedAt: '2025-01-01T10:05:00Z', mentions: [{ id: 'u2', handle: 'ravikumar' }] },
    });
    expect(store.get(postAtom('p1'))).toMatchObject({
      content: 'after @ravikumar',
      editedAt: '2025-01-01T10:05:00Z',
      mentions: [{ id: 'u2', handle: 'ravikumar' }],
    });
    // Issue 27: an edit whose text names no one any more carries no mentions.
    handleServerFrame(store, { event: 'post:edited', data: { postId: 'p1', content: 'plain', updatedAt: '2025-01-01T10:06:00Z' } });
    expect(store.get(postAtom('p1'))!.mentions).toEqual([]);
    handleServerFrame(store, { event: 'post:edited', data: { postId: 'unknown', content: 'x', updatedAt: '' } });
    expect(store.get(postAtom('unknown'))).toBeUndefined();
  });

  it('friend:removed takes the person out of requests and friends', async () => {
    const req = (id: string, sender: object, receiver: object) => ({ id, sender, receiver, status: 'pending', createdAt: '' });
    const p3 = { id: 'u3', name: 'Chitra', avatar: { url: '' } };
    const p4 = { id: 'u4', name: 'Dev', avatar: { url: '' } };
    installFakeFetch({
      '/api/friends/friends-list': () => ok({ friends: [friend] }),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [req('r1', p3, me)] }),
      '/api/friends/sent-requests': () => ok({ sentRequests: [req('r2', me, p4)] }),
      '/api/friends/suggestions': () => ok([]),
    });
    const store = createStore();
    await store.set(loadAllFriendsDataAtom);
    expect(store.get(receivedRequestsAtom)).toHaveLength(1);
    expect(store.get(sentRequestsAtom)).toHaveLength(1);
    expect(store.get(friendsListAtom)).toHaveLength(1);
    const removed = (userId: string, reason: string, requestId?: string) =>
      handleServerFrame(store, { event: 'friend:removed', data: { fromUser: { id: userId, name: '', avatar: '' }, userId, requestId, reason } });
    const v = store.get(friendshipVersionAtom);
    removed('u3', 'cancelled', 'r1');
    expect(store.get(receivedRequestsAtom)).toEqual([]);
    expect(store.get(friendshipVersionAtom)).toBe(v + 1); // open profiles re-check their button
    removed('u4', 'declined', 'r2');
    expect(store.get(sentRequestsAtom)).toEqual([]);
    removed('u2', 'unfriended');
    expect(store.get(friendsListAtom)).toEqual([]);
  });
});

describe('messages (issue 29)', () => {
  const brief = (id: string, name: string) => ({ id, name, avatar: null });
  const msg = (seq: number, over: Record<string, unknown> = {}) => ({
    id: `m${seq}`,
    conversationId: 'c1',
    seq,
    sender: brief('u2', 'Ravi'),
    body: `hi ${seq}`,
    replyTo: null,
    reactions: [],
    editedAt: null,
    unsent: false,
    clientId: `k${seq}`,
    createdAt: `2026-11-27T10:00:0${seq}Z`,
    ...over,
  });
  const conv = (over: Record<string, unknown> = {}) => ({
    id: 'c1',
    kind: 'direct',
    title: 'Ravi',
    members: [
      { ...brief('u1', 'Asha'), role: 'member' },
      { ...brief('u2', 'Ravi'), role: 'member' },
    ],
    lastSeq: 1,
    lastMessage: msg(1),
    readSeq: 1,
    unreadCount: 0,
    muted: false,
    readOnly: false,
    role: 'member',
    updatedAt: '2026-11-27T10:00:01Z',
    createdAt: '2026-11-27T09:00:00Z',
    ...over,
  });

  beforeEach(() => {
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: { id: 'u1', name: 'Asha' } }));
  });

  it('ready carries the unread messages; the message and conversation events reach the store, in order', async () => {
    const store = createStore();
    const frame = (f: ServerFrame) => handleServerFrame(store, f);
    frame({ event: 'ready', data: { userId: 'u1', unreadCount: 2, unreadMessages: 4 } });
    expect(store.get(unreadMessagesAtom)).toBe(4);
    frame({ event: 'conversation:updated', data: { conversation: conv() } });
    frame({ event: 'message:new', data: { conversationId: 'c1', message: msg(2) } });
    frame({ event: 'message:updated', data: { conversationId: 'c1', message: msg(2, { body: 'hi again', editedAt: '2026-11-27T10:01:00Z' }) } });
    frame({ event: 'typing', data: { conversationId: 'c1', userId: 'u2', name: 'Ravi' } });
    await loadMessagesStore(); // the frames wait for the messages chunk, in order
    expect(store.get(conversationAtom('c1'))).toMatchObject({ lastSeq: 2, unreadCount: 1 });
    expect(store.get(conversationAtom('c1'))?.lastMessage?.body).toBe('hi again');
    expect(store.get(unreadMessagesAtom)).toBe(5);
    expect(store.get(typingAtom('c1'))).toHaveLength(1);
    frame({ event: 'message:read', data: { conversationId: 'c1', userId: 'u1', seq: 2, unreadTotal: 4 } });
    frame({ event: 'message:read', data: { conversationId: 'c1', userId: 'u2', seq: 2 } });
    await loadMessagesStore();
    expect(store.get(conversationAtom('c1'))?.unreadCount).toBe(0);
    expect(store.get(unreadMessagesAtom)).toBe(4);
    expect(store.get(readsAtom('c1'))).toEqual({ u2: 2 });
    frame({ event: 'conversation:removed', data: { conversationId: 'c1' } });
    // Malformed payloads change nothing and never throw.
    frame({ event: 'message:new', data: { conversationId: 'c1', message: { id: 'x' } } });
    frame({ event: 'message:read', data: { conversationId: 'c1', userId: 'u2' } as never });
    await loadMessagesStore();
    expect(store.get(conversationAtom('c1'))).toBeUndefined();
  });

  it('typing goes out on the socket; a reconnect re-reads the conversations', async () => {
    const fetchMock = installFakeFetch({
      '/api/conversations': () => ok({ conversations: [conv()], nextCursor: null, unreadTotal: 0 }),
    });
    const { store, client } = setup();
    await loadMessagesStore(); // the messages screen loaded it
    await store.set(loadConversationsAtom);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    client.start();
    const ws = FakeWebSocket.last();
    ws.open();
    store.set(sendTypingAtom, 'c1');
    expect(ws.frames()).toContainEqual({ event: 'typing', data: { conversationId: 'c1' } });
    ws.serverClose(1006);
    vi.advanceTimersByTime(1000);
    FakeWebSocket.last().open();
    await vi.waitFor(() => expect(fetchMock.mock.calls.filter((c) => new URL(String(c[0]), 'http://x').pathname === '/api/conversations')).toHaveLength(2));
    client.stop();
  });
});
