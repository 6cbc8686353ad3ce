import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeAtom } from '../../lib/navigation';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { notificationTarget, rollupActors, toAppNotification, type AppNotification } from './model';
import { NotificationsPanel } from './NotificationsPanel';
import {
  addNotificationAtom,
  clearNotificationAtom,
  markAllAsReadAtom,
  markAsReadAtom,
  notificationsAtom,
  notificationsPanelOpenAtom,
  openNotificationsPanelAtom,
  refreshNotificationsAtom,
  setNotificationsAtom,
  setUnreadCountAtom,
  unreadCountAtom,
} from './notificationsAtoms';

const ok = (data: unknown) => json({ status: 'success', data });

function note(id: string, read = false, extra: Partial<AppNotification> = {}): AppNotification {
  return {
    id,
    type: 'like',
    message: `n ${id}`,
    timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
    read,
    userId: 'u2',
    postId: 'p1',
    avatar: '',
    senderName: 'Ravi',
    actors: [{ id: 'u2', name: 'Ravi', avatar: '' }],
    actorCount: 1,
    postSnippet: '',
    group: null,
    ...extra,
  };
}

function quietFetch() {
  return installFakeFetch({
    '/api/notifications/mark-as-read': () => ok({ updated: 1, unreadCount: 0 }),
    '/api/notifications/mark-all-as-read': () => ok({ updated: 2, unreadCount: 0 }),
  });
}

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => cleanup());

describe('notification state rules (docs/product.md §4)', () => {
  it('marking one read lowers the count by one, never below zero', async () => {
    quietFetch();
    const store = createStore();
    store.set(setNotificationsAtom, [note('a'), note('b'), note('c', true)]);
    store.set(setUnreadCountAtom, 2);
    await store.set(markAsReadAtom, 'a');
    expect(store.get(unreadCountAtom)).toBe(1);
    expect(store.get(notificationsAtom).find((n) => n.id === 'a')?.read).toBe(true);
    // Already read: nothing changes.
    await store.set(markAsReadAtom, 'a');
    await store.set(markAsReadAtom, 'c');
    expect(store.get(unreadCountAtom)).toBe(1);
    // The count never goes below zero, even when it was already zero.
    store.set(setUnreadCountAtom, 0);
    await store.set(markAsReadAtom, 'b');
    expect(store.get(unreadCountAtom)).toBe(0);
  });

  it('a live notification lands at the top as unread and increments the count', () => {
    const store = createStore();
    store.set(setNotificationsAtom, [note('old', true)]);
    store.set(setUnreadCountAtom, 0);
    store.set(addNotificationAtom, { ...note('new'), read: true });
    expect(store.get(notificationsAtom).map((n) => n.id)).toEqual(['new', 'old']);
    expect(store.get(notificationsAtom)[0]!.read).toBe(false);
    expect(store.get(unreadCountAtom)).toBe(1);
    // The server's own count wins when the event carries one; the same row
    // again is not a second row.
    store.set(addNotificationAtom, note('newer'), 7);
    expect(store.get(unreadCountAtom)).toBe(7);
    store.set(addNotificationAtom, note('newer'), 7);
    expect(store.get(notificationsAtom)).toHaveLength(3);
    expect(store.get(unreadCountAtom)).toBe(7);
  });

  it.each([
    { name: 'an unread roll-up: no count change', wasRead: false, server: undefined, unread: 2 },
    { name: 'a read roll-up: unread again, counted once', wasRead: true, server: undefined, unread: 2 },
    { name: "the server's count wins", wasRead: true, server: 5, unread: 5 },
  ])('a live event of a listed like roll-up updates it in place and moves it up: $name', ({ wasRead, server, unread }) => {
    const store = createStore();
    const before = note('roll', wasRead, { message: 'Asha liked your post', actorCount: 1 });
    store.set(setNotificationsAtom, [note('other'), before]);
    store.set(setUnreadCountAtom, wasRead ? 1 : 2);
    const after = toAppNotification({
      id: 'roll',
      type: 'like',
      message: 'Ben and Asha liked your post',
      actors: [
        { id: 'b', name: 'Ben', avatar: { url: '/media/b.png' } },
        { id: 'a', name: 'Asha', avatar: { url: '' } },
      ],
      actorCount: 2,
      post: { id: 'p1', snippet: 'Fest tonight' },
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T00:05:00Z',
      isRead: false,
    });
    store.set(addNotificationAtom, after, server);
    const list = store.get(notificationsAtom);
    expect(list.map((n) => n.id)).toEqual(['roll', 'other']);
    expect(list[0]).toMatchObject({ message: 'Ben and Asha liked your post', read: false, actorCount: 2, postSnippet: 'Fest tonight' });
    expect(store.get(unreadCountAtom)).toBe(unread);
  });

  it('mark all read zeroes the count; clearing an unread one lowers it', async () => {
    const fetchMock = installFakeFetch({
      '/api/notifications/mark-all-as-read': () => ok({ updated: 2, unreadCount: 0 }),
      '/api/notifications/b': () => ok({ id: 'b', unreadCount: 0 }),
    });
    const store = createStore();
    store.set(setNotificationsAtom, [note('a'), note('b')]);
    store.set(setUnreadCountAtom, 2);
    await store.set(clearNotificationAtom, 'b');
    expect(store.get(notificationsAtom).map((n) => n.id)).toEqual(['a']);
    expect(store.get(unreadCountAtom)).toBe(1);
    await store.set(markAllAsReadAtom);
    expect(store.get(unreadCountAtom)).toBe(0);
    expect(store.get(notificationsAtom).every((n) => n.read)).toBe(true);
    expect(fetchMock.mock.calls.map((c) => (c[1] as RequestInit).method)).toEqual(['DELETE', 'PATCH']);
  });

  it('a refresh keeps items that arrived live meanwhile on top', async () => {
    let resolve: (r: Response) => void = () => {};
    installFakeFetch({ '/api/notifications': () => new Promise<Response>((r) => (resolve = r)) });
    const store = createStore();
    const pending = store.set(refreshNotificationsAtom);
    const live = { ...note('live'), timestamp: new Date().toISOString() };
    store.set(addNotificationAtom, live, 3);
    resolve(
      ok({
        notifications: [
          { id: 'x', type: 'friend_request', message: 'Ravi sent you a friend request', sender: { id: 'u2', name: 'Ravi' }, createdAt: new Date(Date.now() - 60_000).toISOString(), isRead: false },
        ],
        pagination: { unreadCount: 1, nextCursor: null, limit: 20 },
      }),
    );
    await pending;
    expect(store.get(notificationsAtom).map((n) => n.id)).toEqual(['live', 'x']);
    expect(store.get(unreadCountAtom)).toBe(2);
  });
});

describe('notification model', () => {
  it('converts the server form to the client form', () => {
    const n = toAppNotification({
      id: 'n1',
      type: 'friend_accepted',
      message: '',
      sender: { id: 'u2', name: 'Ravi', avatar: '/media/r.png' },
      createdAt: '2025-01-01T00:00:00Z',
      isRead: false,
      unreadCount: 1,
    });
    expect(n).toMatchObject({ id: 'n1', type: 'system', message: 'Ravi accepted your friend request', userId: 'u2', avatar: '/media/r.png', read: false });
  });

  it.each([
    { names: ['Asha'], count: 1, want: 'Asha' },
    { names: ['Asha', 'Ben'], count: 2, want: 'Asha and Ben' },
    { names: ['Asha'], count: 2, want: 'Asha and 1 other' },
    { names: ['Asha', 'Ben', 'Chen'], count: 3, want: 'Asha and 2 others' },
    { names: ['Asha', 'Ben', 'Chen'], count: 1240, want: 'Asha and 1,239 others' },
    { names: [], count: 1, want: 'Someone' },
    { names: [], count: 4, want: '4 people' },
  ])('words a roll-up of $count as "$want"', ({ names, count, want }) => {
    expect(rollupActors(names, count)).toBe(want);
  });

  it('reads a rolled-up like: newest liker first, count, snippet, time of the newest like', () => {
    const n = toAppNotification({
      id: 'r1',
      type: 'like',
      actors: [
        { id: 'c', name: 'Chen', avatar: { url: '/media/c.png' } },
        { id: 'b', name: 'Ben' },
        { id: 'a', name: 'Asha' },
      ],
      actorCount: 1240,
      sender: { id: 'c', name: 'Chen' },
      post: { id: 'p1', snippet: 'Fest tonight' },
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-02T00:00:00Z',
      isRead: false,
    });
    // No message from the server: the client words it the same way.
    expect(n).toMatchObject({
      type: 'like',
      message: 'Chen and 1,239 others liked your post',
      userId: 'c',
      avatar: '/media/c.png',
      actorCount: 1240,
      postId: 'p1',
      postSnippet: 'Fest tonight',
      timestamp: '2025-01-02T00:00:00Z',
    });
    expect(n.actors.map((a) => a.name)).toEqual(['Chen', 'Ben', 'Asha']);
  });

  it('a mention rolls up per post (issue 27): its line, its people and its post', () => {
    const base = { id: 'm1', type: 'mention', post: { id: 'p3', snippet: 'Lab at six' }, updatedAt: '2025-01-02T00:00:00Z', unreadCount: 1 };
    const one = toAppNotification({ ...base, message: 'Asha mentioned you in a comment', actors: [{ id: 'a', name: 'Asha' }], actorCount: 1 });
    expect(one).toMatchObject({ type: 'mention', message: 'Asha mentioned you in a comment', postId: 'p3', userId: 'a', postSnippet: 'Lab at six' });
    // Without the server's line, the client words the roll-up.
    const many = toAppNotification({ ...base, actors: [{ id: 'b', name: 'Ben' }, { id: 'a', name: 'Asha' }], actorCount: 3 });
    expect(many.message).toBe('Ben and 2 others mentioned you');
  });

  it('clicks go where docs/product.md §2.11 says', () => {
    expect(notificationTarget(note('a', false, { type: 'friend_request' }))).toEqual({ page: 'friends', tab: 'requests' });
    expect(notificationTarget(note('a', false, { type: 'like' }))).toEqual({ page: 'feed' });
    expect(notificationTarget(note('a', false, { type: 'like', postId: '', userId: '' }))).toBeNull();
    expect(notificationTarget(note('a', false, { type: 'comment', postId: 'p9' }))).toEqual({ page: 'post', postId: 'p9' });
    expect(notificationTarget(note('a', false, { type: 'mention', postId: 'p9' }))).toEqual({ page: 'post', postId: 'p9' });
    expect(notificationTarget(note('a', false, { type: 'system', postId: '' }))).toEqual({ page: 'profile', userId: 'u2' });
  });
});

describe('NotificationsPanel (docs/product.md §2.11)', () => {
  function renderPanel(list: unknown[], unread: number) {
    const fetchMock = installFakeFetch({
      '/api/notifications': () => ok({ notifications: list, pagination: { unreadCount: unread, nextCursor: null, limit: 20 } }),
      '/api/notifications/mark-as-read': () => ok({ updated: 1, unreadCount: 0 }),
      '/api/notifications/mark-all-as-read': () => ok({ updated: 1, unreadCount: 0 }),
    });
    const store = createStore();
    render(
      <Provider store={store}>
        <NotificationsPanel />
      </Provider>,
    );
    act(() => store.set(openNotificationsPanelAtom, true));
    return { store, fetchMock };
  }

  it('shows the empty state, and closes on Escape', async () => {
    const { store } = renderPanel([], 0);
    expect(await screen.findByText('No new notifications')).toBeTruthy();
    expect(screen.getByText("We'll let you know when something new happens")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark all read' })).toBeNull();
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
    expect(store.get(notificationsPanelOpenAtom)).toBe(false);
  });

  it('lists with relative times; Mark all read only while unread; a click marks read and navigates', async () => {
    const fiveMin = new Date(Date.now() - 5 * 60_000).toISOString();
    const { store, fetchMock } = renderPanel(
      [
        { id: 'n1', type: 'friend_request', message: 'Ravi sent you a friend request', sender: { id: 'u2', name: 'Ravi' }, createdAt: fiveMin, isRead: false },
        {
          id: 'n2',
          type: 'like',
          message: 'Ravi and 1,239 others liked your post',
          sender: { id: 'u2', name: 'Ravi' },
          actors: [{ id: 'u2', name: 'Ravi' }, { id: 'u3', name: 'Asha' }],
          actorCount: 1240,
          post: { id: 'p1', snippet: 'Fest tonight' },
          createdAt: fiveMin,
          updatedAt: fiveMin,
          isRead: true,
        },
      ],
      1,
    );
    const list = await screen.findByRole('list', { name: 'Notifications list' });
    expect(within(list).getAllByText('5 minutes ago')).toHaveLength(2);
    expect(within(list).getByText('Ravi and 1,239 others liked your post')).toBeTruthy();
    expect(within(list).getByText('“Fest tonight”')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeTruthy();
    act(() => within(list).getByRole('button', { name: /sent you a friend request/ }).click());
    expect(store.get(unreadCountAtom)).toBe(0);
    expect(store.get(notificationsPanelOpenAtom)).toBe(false);
    expect(store.get(routeAtom)).toEqual({ page: 'friends' });
    expect(sessionStorage.getItem('campus.friendsTab')).toBe('requests');
    await waitFor(() => expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('mark-as-read'))).toBe(true));
    const markCall = fetchMock.mock.calls.find((c) => String(c[0]).includes('mark-as-read'))!;
    expect(JSON.parse(String((markCall[1] as RequestInit).body))).toEqual({ notificationIds: ['n1'] });
  });
});
