import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backFromSettingsAtom,
  canGoBackInApp,
  consumeFriendsTab,
  initNavigationAtom,
  initialRoute,
  navigateAtom,
  parsePath,
  pathOf,
  presetFriendsTab,
  readStoredRoute,
  restoreRouteAtom,
  routeAtom,
  routeFromHistoryState,
  searchDeepLink,
  searchHref,
} from './navigation';

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('paths and deep links', () => {
  it.each([
    ['/profile/u_1', { page: 'profile', userId: 'u_1' }],
    ['/post/p-9', { page: 'post', postId: 'p-9' }],
    ['/friends', { page: 'friends' }],
    ['/settings', { page: 'settings' }],
    ['/profile', { page: 'profile' }],
    ['/feed', { page: 'feed' }],
    ['/groups', { page: 'groups' }],
    ['/moderation', { page: 'moderation' }],
    ['/admin', { page: 'admin' }],
    ['/messages', { page: 'messages' }],
    ['/messages/3f2c0e4a-9b1d-4c7e-8a55-0d6f1e2b7c90', { page: 'conversation', conversationId: '3f2c0e4a-9b1d-4c7e-8a55-0d6f1e2b7c90' }],
    ['/g/robotics-club', { page: 'group', handle: 'robotics-club' }],
    ['/g/Robotics-Club', { page: 'group', handle: 'robotics-club' }],
    ['/g/robotics-club/live', { page: 'groupLive', handle: 'robotics-club' }],
    ['/tags/chess', { page: 'tag', tag: 'chess' }],
    ['/tags/Chess_Club', { page: 'tag', tag: 'chess_club' }],
    ['/tags/%23chess', { page: 'tag', tag: 'chess' }],
    ['/tags/%E0%A4%B9%E0%A4%BF%E0%A4%A8%E0%A5%8D%E0%A4%A6%E0%A5%80', { page: 'tag', tag: 'हिन्दी' }],
  ])('%s', (path, route) => {
    expect(parsePath(path)).toEqual(route);
  });

  it.each([
    ['/search', '?q=%40Ravi', '@Ravi'],
    ['/search/', '?q=%23exams', '#exams'],
    ['/search', '?q=%20%20', null],
    ['/search', '', null],
    ['/feed', '?q=x', null],
  ])('search deep link %s%s', (path, query, q) => {
    expect(searchDeepLink(path, query)).toBe(q);
  });

  it('a search link opens over the feed; its href round-trips', () => {
    expect(parsePath('/search')).toEqual({ page: 'feed' });
    const href = new URL(searchHref('@Ravi Kumar & co'), 'http://localhost');
    expect(searchDeepLink(href.pathname, href.search)).toBe('@Ravi Kumar & co');
    window.history.replaceState(null, '', href.pathname + href.search);
    expect(createStore().set(initNavigationAtom)).toBe('@Ravi Kumar & co');
    expect(window.location.pathname + window.location.search).toBe('/');
  });

  it.each(['/', '/login', '/nope', '/post', '/post/a/b', '/profile/..%2F', '/g', '/g/ab', '/g/-club', '/g/club-', '/g/a_b_c', '/g/club/other', '/tags', '/tags/2026', '/tags/c%23', '/tags/%E0%A4', '/tags/a/b'])('%s names no page', (path) => {
    expect(parsePath(path)).toBeNull();
  });

  it('round-trips routes to paths', () => {
    expect(pathOf({ page: 'feed' })).toBe('/');
    expect(pathOf({ page: 'profile', userId: 'u1' })).toBe('/profile/u1');
    expect(pathOf({ page: 'post', postId: 'p1' })).toBe('/post/p1');
    expect(pathOf({ page: 'friends' })).toBe('/friends');
    expect(pathOf({ page: 'groups' })).toBe('/groups');
    expect(pathOf({ page: 'admin' })).toBe('/admin');
    expect(pathOf({ page: 'group', handle: 'bca-2020' })).toBe('/g/bca-2020');
    expect(pathOf({ page: 'groupLive', handle: 'fest' })).toBe('/g/fest/live');
    expect(pathOf({ page: 'messages' })).toBe('/messages');
    expect(pathOf({ page: 'conversation', conversationId: 'c-1' })).toBe('/messages/c-1');
    expect(pathOf({ page: 'tag', tag: 'हिन्दी' })).toBe('/tags/%E0%A4%B9%E0%A4%BF%E0%A4%A8%E0%A5%8D%E0%A4%A6%E0%A5%80');
    expect(parsePath(pathOf({ page: 'tag', tag: 'हिन्दी' }))).toEqual({ page: 'tag', tag: 'हिन्दी' });
  });

  it('keeps a tag page in history, normalized, so Back returns to it', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    store.set(navigateAtom, { page: 'tag', tag: '#Chess' });
    expect(window.location.pathname).toBe('/tags/chess');
    expect(routeFromHistoryState(window.history.state)).toEqual({ page: 'tag', tag: 'chess' });
    store.set(navigateAtom, { page: 'feed' });
    store.set(restoreRouteAtom, { page: 'tag', tag: 'chess' });
    expect(store.get(routeAtom)).toEqual({ page: 'tag', tag: 'chess' });
    expect(routeFromHistoryState({ page: 'tag', tag: 'not a tag' })).toEqual({ page: 'feed' });
  });

  it('keeps a conversation in history so Back returns to it, and to the list before it', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    store.set(navigateAtom, { page: 'messages' });
    store.set(navigateAtom, { page: 'conversation', conversationId: 'c-1' });
    expect(window.location.pathname).toBe('/messages/c-1');
    expect(routeFromHistoryState(window.history.state)).toEqual({ page: 'conversation', conversationId: 'c-1' });
    store.set(navigateAtom, { page: 'feed' });
    store.set(restoreRouteAtom, { page: 'conversation', conversationId: 'c-1' });
    expect(store.get(routeAtom)).toEqual({ page: 'conversation', conversationId: 'c-1' });
    store.set(restoreRouteAtom, { page: 'messages' });
    expect(store.get(routeAtom)).toEqual({ page: 'messages' });
  });

  it('keeps a group page in history so Back returns to it', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    store.set(navigateAtom, { page: 'group', handle: 'robotics-club' });
    expect(window.location.pathname).toBe('/g/robotics-club');
    store.set(navigateAtom, { page: 'groupLive', handle: 'robotics-club' });
    store.set(restoreRouteAtom, { page: 'group', handle: 'robotics-club' });
    expect(store.get(routeAtom)).toEqual({ page: 'group', handle: 'robotics-club' });
    expect(routeFromHistoryState({ page: 'group', handle: 'Not A Handle' })).toEqual({ page: 'feed' });
  });
});

describe('stored page (docs/product.md §2.2)', () => {
  it('defaults to feed', () => {
    expect(readStoredRoute()).toEqual({ page: 'feed' });
  });

  it('reads a stored page and the viewed profile', () => {
    sessionStorage.setItem('campus.page', 'profile');
    sessionStorage.setItem('campus.viewedUserId', 'u7');
    expect(readStoredRoute()).toEqual({ page: 'profile', userId: 'u7' });
    sessionStorage.setItem('campus.page', 'friends');
    expect(readStoredRoute()).toEqual({ page: 'friends' });
  });

  it('falls back to feed for a page outside feed, profile, friends, settings', () => {
    sessionStorage.setItem('campus.page', 'nowhere');
    expect(readStoredRoute()).toEqual({ page: 'feed' });
    sessionStorage.setItem('campus.page', 'post');
    expect(readStoredRoute()).toEqual({ page: 'feed' });
  });

  it('prefers the URL deep link over the stored page', () => {
    sessionStorage.setItem('campus.page', 'friends');
    expect(initialRoute('/post/p1')).toEqual({ page: 'post', postId: 'p1' });
    expect(initialRoute('/')).toEqual({ page: 'friends' });
    expect(initialRoute('/login')).toEqual({ page: 'friends' });
  });
});

describe('the saved page is per tab (issue 16 #6)', () => {
  it('keeps the page in sessionStorage, so another tab never changes where a reload lands', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    store.set(navigateAtom, { page: 'settings' });
    expect(sessionStorage.getItem('campus.page')).toBe('settings');
    expect(localStorage.getItem('campus.page')).toBeNull();
    // Another tab's page (shared storage) does not leak into this one.
    localStorage.setItem('campus.page', 'friends');
    sessionStorage.setItem('campus.page', 'feed');
    expect(readStoredRoute()).toEqual({ page: 'feed' });
  });

  it('opens the feed when the home address is typed, whatever page the tab had', () => {
    sessionStorage.setItem('campus.page', 'settings');
    const spy = vi
      .spyOn(performance, 'getEntriesByType')
      .mockReturnValue([{ type: 'navigate' } as unknown as PerformanceEntry]);
    try {
      expect(initialRoute('/')).toEqual({ page: 'feed' });
      expect(initialRoute('/friends')).toEqual({ page: 'friends' });
      spy.mockReturnValue([{ type: 'reload' } as unknown as PerformanceEntry]);
      expect(initialRoute('/')).toEqual({ page: 'settings' });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('history (docs/product.md §2.2)', () => {
  it('restores the page from history state, default feed', () => {
    expect(routeFromHistoryState({ page: 'friends' })).toEqual({ page: 'friends' });
    expect(routeFromHistoryState({ page: 'profile', userId: 'u2' })).toEqual({ page: 'profile', userId: 'u2' });
    expect(routeFromHistoryState({ page: 'post', postId: 'p3' })).toEqual({ page: 'post', postId: 'p3' });
    expect(routeFromHistoryState(null)).toEqual({ page: 'feed' });
    expect(routeFromHistoryState({ page: 'bogus' })).toEqual({ page: 'feed' });
  });

  it('initialises from storage into history state', () => {
    sessionStorage.setItem('campus.page', 'friends');
    const store = createStore();
    store.set(initNavigationAtom);
    expect(canGoBackInApp()).toBe(false);
    expect(store.get(routeAtom)).toEqual({ page: 'friends' });
    expect(window.history.state).toEqual({ page: 'friends', depth: 0 });
    expect(window.location.pathname).toBe('/friends');
  });

  it('navigates: stores the page, pushes history, and Back restores', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    const before = window.history.length;

    store.set(navigateAtom, { page: 'profile', userId: 'u9' });
    expect(store.get(routeAtom)).toEqual({ page: 'profile', userId: 'u9' });
    expect(sessionStorage.getItem('campus.page')).toBe('profile');
    expect(sessionStorage.getItem('campus.viewedUserId')).toBe('u9');
    expect(window.location.pathname).toBe('/profile/u9');
    expect(window.history.state).toEqual({ page: 'profile', userId: 'u9', depth: 1 });
    expect(canGoBackInApp()).toBe(true);
    expect(window.history.length).toBe(before + 1);

    // Own profile clears the viewed user id (mobile bar 'Profile', 'View your profile').
    store.set(navigateAtom, { page: 'profile' });
    expect(sessionStorage.getItem('campus.viewedUserId')).toBeNull();

    // What popstate hands us: the earlier entry's state.
    store.set(restoreRouteAtom, { page: 'feed' });
    expect(store.get(routeAtom)).toEqual({ page: 'feed' });
    expect(sessionStorage.getItem('campus.page')).toBe('feed');
  });

  it('does not push a duplicate entry for the page already shown', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    const before = window.history.length;
    store.set(navigateAtom, { page: 'feed' });
    expect(window.history.length).toBe(before);
  });

  it('remembers the previous page when opening settings, and Back returns there', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    store.set(navigateAtom, { page: 'friends' });
    store.set(navigateAtom, { page: 'settings' });
    expect(sessionStorage.getItem('campus.previousPage')).toBe('friends');
    store.set(backFromSettingsAtom);
    expect(store.get(routeAtom)).toEqual({ page: 'friends' });
  });

  it('settings Back defaults to feed', () => {
    const store = createStore();
    store.set(backFromSettingsAtom);
    expect(store.get(routeAtom)).toEqual({ page: 'feed' });
  });

  it('keeps the post route out of the stored page', () => {
    const store = createStore();
    store.set(initNavigationAtom);
    store.set(navigateAtom, { page: 'friends' });
    store.set(navigateAtom, { page: 'post', postId: 'p1' });
    expect(window.location.pathname).toBe('/post/p1');
    expect(sessionStorage.getItem('campus.page')).toBe('friends');
  });
});

describe('preset friends tab', () => {
  it('is read once, then consumed', () => {
    presetFriendsTab('suggestions');
    expect(consumeFriendsTab()).toBe('suggestions');
    expect(consumeFriendsTab()).toBeNull();
  });
});
