// In-app navigation (docs/product.md §2.2). Navigation is by page name: feed, profile,
// friends, groups, messages or settings, optionally with a user id; plus the /post/{id},
// /g/{handle}, /g/{handle}/live, /messages/{id} and /tags/{tag} routes.
// The current page is kept in per-tab storage (lib/storage) and mirrored into browser history
// (state {page, userId, postId}) so Back works; the URL follows too, so deep
// links (/profile/{id}, /post/{id}, /friends) survive a reload — the server
// answers index.html for any non-API path.

import { atom } from 'jotai';
import { readString, removeKey, STORAGE_KEYS, writeString } from './storage';
import { normalizeTag } from './tags';
import { scrollToTop } from './scroll';

export const PAGES = ['feed', 'profile', 'friends', 'groups', 'messages', 'settings', 'moderation', 'admin'] as const;
export type PageName = (typeof PAGES)[number];

export type Route =
  | { page: 'feed' }
  | { page: 'friends' }
  | { page: 'groups' }
  | { page: 'messages' }
  | { page: 'settings' }
  | { page: 'moderation' }
  | { page: 'admin' }
  | { page: 'profile'; userId?: string }
  | { page: 'post'; postId: string }
  | { page: 'group'; handle: string }
  | { page: 'groupLive'; handle: string }
  | { page: 'conversation'; conversationId: string }
  | { page: 'tag'; tag: string };

export type NavigateTarget =
  | { page: PageName; userId?: string }
  | { page: 'post'; postId: string }
  | { page: 'group'; handle: string }
  | { page: 'groupLive'; handle: string }
  | { page: 'conversation'; conversationId: string }
  | { page: 'tag'; tag: string };

export const FEED: Route = { page: 'feed' };

export function isPageName(v: unknown): v is PageName {
  return typeof v === 'string' && (PAGES as readonly string[]).includes(v);
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;
/** A group handle (GROUPS_API): 3–30 of a–z, 0–9 and '-', not starting or ending with '-'. */
export const GROUP_HANDLE = /^[a-z0-9](?:[a-z0-9-]{1,28})[a-z0-9]$/;

function decodeHandle(s: string | undefined): string | null {
  if (!s) return null;
  try {
    const v = decodeURIComponent(s).toLowerCase();
    return GROUP_HANDLE.test(v) ? v : null;
  } catch {
    return null;
  }
}

function decodeTag(s: string | undefined): string | null {
  if (!s) return null;
  try {
    return normalizeTag(decodeURIComponent(s));
  } catch {
    return null;
  }
}

function decodeSegment(s: string | undefined): string | null {
  if (!s) return null;
  try {
    const v = decodeURIComponent(s);
    return ID.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** The route a URL path names, or null for '/', '/login' and anything unknown. */
export function parsePath(pathname: string): Route | null {
  const parts = pathname.split('/').filter(Boolean);
  const [first, second] = parts;
  if (parts.length === 1) {
    if (first === 'feed' || first === 'search') return FEED; // search: an overlay over the feed (searchDeepLink)
    if (first === 'friends') return { page: 'friends' };
    if (first === 'groups') return { page: 'groups' };
    if (first === 'messages') return { page: 'messages' };
    if (first === 'settings') return { page: 'settings' };
    if (first === 'moderation') return { page: 'moderation' };
    if (first === 'admin') return { page: 'admin' };
    if (first === 'profile') return { page: 'profile' };
  }
  if (parts.length === 2) {
    const id = decodeSegment(second);
    if (first === 'profile' && id) return { page: 'profile', userId: id };
    if (first === 'post' && id) return { page: 'post', postId: id };
    if (first === 'messages' && id) return { page: 'conversation', conversationId: id };
    const handle = decodeHandle(second);
    if (first === 'g' && handle) return { page: 'group', handle };
    const tag = decodeTag(second);
    if (first === 'tags' && tag) return { page: 'tag', tag };
  }
  if (parts.length === 3 && first === 'g' && parts[2] === 'live') {
    const handle = decodeHandle(second);
    if (handle) return { page: 'groupLive', handle };
  }
  return null;
}

/**
 * The query of a search deep link (`/search?q=…`, what an @name or #tag
 * links to), or null. Search is an overlay over the page, not a page: the
 * link opens the feed with the overlay searching for q.
 */
export function searchDeepLink(pathname: string, search: string): string | null {
  if (pathname.replace(/\/+$/, '') !== '/search') return null;
  const q = new URLSearchParams(search).get('q')?.trim();
  return q ? q : null;
}

/** The URL of a search deep link for q (see searchDeepLink). */
export function searchHref(q: string): string {
  return `/search?q=${encodeURIComponent(q)}`;
}

/** The URL path of a route. */
export function pathOf(route: Route): string {
  switch (route.page) {
    case 'feed':
      return '/';
    case 'friends':
      return '/friends';
    case 'groups':
      return '/groups';
    case 'messages':
      return '/messages';
    case 'conversation':
      return `/messages/${encodeURIComponent(route.conversationId)}`;
    case 'settings':
      return '/settings';
    case 'moderation':
      return '/moderation';
    case 'admin':
      return '/admin';
    case 'profile':
      return route.userId ? `/profile/${encodeURIComponent(route.userId)}` : '/profile';
    case 'post':
      return `/post/${encodeURIComponent(route.postId)}`;
    case 'group':
      return `/g/${encodeURIComponent(route.handle)}`;
    case 'groupLive':
      return `/g/${encodeURIComponent(route.handle)}/live`;
    case 'tag':
      return tagPath(route.tag);
  }
}

/** The URL path of a tag's page (tag normalized, lib/tags). */
export function tagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tag)}`;
}

function toRoute(page: unknown, userId?: unknown, postId?: unknown, handle?: unknown, conversationId?: unknown, tag?: unknown): Route {
  if (page === 'post' && typeof postId === 'string' && ID.test(postId)) return { page: 'post', postId };
  if (page === 'tag' && typeof tag === 'string') {
    const t = normalizeTag(tag);
    if (t) return { page, tag: t };
  }
  if (page === 'conversation' && typeof conversationId === 'string' && ID.test(conversationId)) return { page, conversationId };
  if ((page === 'group' || page === 'groupLive') && typeof handle === 'string' && GROUP_HANDLE.test(handle)) return { page, handle };
  if (!isPageName(page)) return FEED; // docs/product.md §2.2: anything else falls back to feed
  if (page === 'profile') {
    return typeof userId === 'string' && ID.test(userId) ? { page, userId } : { page };
  }
  return { page };
}

/** The stored page (docs/product.md §2.2); outside feed, profile, friends, settings it is feed. */
export function readStoredRoute(): Route {
  return toRoute(readString(STORAGE_KEYS.page), readString(STORAGE_KEYS.viewedUserId));
}

/** Back (docs/product.md §2.2): the page from history state, default feed. */
export function routeFromHistoryState(state: unknown): Route {
  if (typeof state !== 'object' || state === null) return FEED;
  const s = state as { page?: unknown; userId?: unknown; postId?: unknown; handle?: unknown; conversationId?: unknown; tag?: unknown };
  return toRoute(s.page, s.userId, s.postId, s.handle, s.conversationId, s.tag);
}

/**
 * The history entry of a route. `depth` counts in-app steps from where the
 * app was opened, so an in-app Back button knows whether going back stays in
 * the app.
 */
export function historyStateOf(route: Route, depth = 0): Record<string, string | number> {
  const state: Record<string, string | number> = { page: route.page, depth };
  if (route.page === 'profile' && route.userId) state.userId = route.userId;
  if (route.page === 'post') state.postId = route.postId;
  if (route.page === 'group' || route.page === 'groupLive') state.handle = route.handle;
  if (route.page === 'conversation') state.conversationId = route.conversationId;
  if (route.page === 'tag') state.tag = route.tag;
  return state;
}

function currentDepth(): number {
  const d = (window.history.state as { depth?: unknown } | null)?.depth;
  return typeof d === 'number' && d >= 0 ? d : 0;
}

/** True when Back would land on an earlier page of this app (not another site). */
export function canGoBackInApp(): boolean {
  return currentDepth() > 0;
}

/** docs/product.md §2.2: launching the installed app from a fresh navigation resets to feed. */
function isFreshStandaloneLaunch(): boolean {
  try {
    const standalone = typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;
    if (!standalone) return false;
    const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
    return nav?.type === 'navigate';
  } catch {
    return false;
  }
}

/** True when the document was opened by typing or following a link (not reload, not Back). */
function isFreshNavigation(): boolean {
  try {
    const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
    return nav?.type === 'navigate';
  } catch {
    return false;
  }
}

/**
 * Where the signed-in app starts: the URL's deep link, else the stored page.
 * The home address typed afresh is the feed, whatever page the tab had open.
 */
export function initialRoute(pathname: string = window.location.pathname): Route {
  const fromUrl = parsePath(pathname);
  if (fromUrl) return fromUrl;
  if (isFreshStandaloneLaunch()) return FEED;
  if (pathname === '/' && isFreshNavigation()) return FEED;
  return readStoredRoute();
}

function sameRoute(a: Route, b: Route): boolean {
  return pathOf(a) === pathOf(b);
}

function persist(route: Route): void {
  // Not page names: a reload finds them in the URL.
  if (route.page === 'post' || route.page === 'group' || route.page === 'groupLive' || route.page === 'conversation' || route.page === 'tag') return;
  writeString(STORAGE_KEYS.page, route.page);
  if (route.page === 'profile') {
    if (route.userId) writeString(STORAGE_KEYS.viewedUserId, route.userId);
    else removeKey(STORAGE_KEYS.viewedUserId);
  }
}

// undefined until the signed-in shell initialises navigation.
const routeBaseAtom = atom<Route | undefined>(undefined);

/** The page on screen. */
export const routeAtom = atom<Route>((get) => get(routeBaseAtom) ?? FEED);

/**
 * Sets the starting route from the URL or storage and records it in history.
 * Answers the query of a search deep link, for the shell to open the search
 * overlay with (the URL then drops it: the overlay is not a page).
 */
export const initNavigationAtom = atom(null, (_get, set): string | null => {
  const route = initialRoute();
  const q = searchDeepLink(window.location.pathname, window.location.search);
  persist(route);
  window.history.replaceState(historyStateOf(route), '', pathOf(route) + (q ? '' : window.location.search) + window.location.hash);
  set(routeBaseAtom, route);
  return q;
});

/** Browser Back/Forward. */
export const restoreRouteAtom = atom(null, (_get, set, state: unknown) => {
  const route = routeFromHistoryState(state);
  persist(route);
  set(routeBaseAtom, route);
});

/** Goes to a page (docs/product.md §2.2 navigate event). */
export const navigateAtom = atom(null, (get, set, target: NavigateTarget) => {
  const current = get(routeAtom);
  const route: Route =
    target.page === 'post'
      ? { page: 'post', postId: target.postId }
      : target.page === 'conversation'
        ? toRoute(target.page, undefined, undefined, undefined, target.conversationId)
        : target.page === 'group' || target.page === 'groupLive'
          ? toRoute(target.page, undefined, undefined, target.handle)
          : target.page === 'tag'
            ? toRoute(target.page, undefined, undefined, undefined, undefined, target.tag)
            : toRoute(target.page, target.userId);
  if (route.page === 'settings' && current.page !== 'settings') {
    // docs/product.md §2.2: the previous page is set when opening settings.
    writeString(STORAGE_KEYS.previousPage, isPageName(current.page) ? current.page : 'feed');
  }
  persist(route);
  if (!sameRoute(current, route)) {
    window.history.pushState(historyStateOf(route, currentDepth() + 1), '', pathOf(route));
  }
  set(routeBaseAtom, route);
  scrollToTop();
});

/** docs/product.md §2.16: settings' Back returns to the previous page (default feed). */
export const backFromSettingsAtom = atom(null, (_get, set) => {
  const prev = readString(STORAGE_KEYS.previousPage);
  const page: PageName = isPageName(prev) && prev !== 'settings' ? prev : 'feed';
  set(navigateAtom, page === 'profile' ? { page, userId: readString(STORAGE_KEYS.viewedUserId) ?? undefined } : { page });
});

// --- remembered extras (docs/product.md §2.2) -------------------------------------------

export type ProfileTab = 'memories' | 'collections' | 'friends' | 'about';
export type FriendsTab = 'friends' | 'requests' | 'suggestions';

export function setStoredProfileTab(tab: ProfileTab): void {
  writeString(STORAGE_KEYS.profileTab, tab);
}

export function readStoredProfileTab(): ProfileTab {
  const v = readString(STORAGE_KEYS.profileTab);
  return v === 'collections' || v === 'friends' || v === 'about' ? v : 'memories';
}

/** Presets the tab the friends screen opens on next. */
export function presetFriendsTab(tab: FriendsTab): void {
  writeString(STORAGE_KEYS.friendsTab, tab);
}

/** Reads the preset friends tab once, then forgets it (docs/product.md §2.2). */
export function consumeFriendsTab(): FriendsTab | null {
  const v = readString(STORAGE_KEYS.friendsTab);
  removeKey(STORAGE_KEYS.friendsTab);
  return v === 'friends' || v === 'requests' || v === 'suggestions' ? v : null;
}
