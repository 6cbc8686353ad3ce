import { focusLandingWhenReady, takeLandingFocus } from '../lib/landingFocus';
import { useAtomValue, useSetAtom, type Atom, type createStore } from 'jotai';
import { Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { refreshCurrentUserAtom } from '../features/auth/authAtoms';
import { FeedPage } from '../features/feed/FeedPage';
// After FeedPage: imported before it, the build split the posts' modules
// out of this chunk into one of their own (a request more on the first load).
import { feedHasMoreAtom, feedPostIdsAtom, loadMoreFeedAtom, primeFeedAtom } from '../features/feed/feedAtoms';
import { FEED_PAGE_SIZE } from '../constants';
import { refreshPendingRequestsAtom } from '../features/friends/friendsAtoms';
import { notificationsPanelOpenAtom } from '../features/notifications/notificationsAtoms';
import { LazyComments, preloadPostParts, preloadWhenIdle } from '../features/posts/lazyParts';
import { useOwnAuthorSync } from '../features/posts/useOwnAuthorSync';
import { socketStatusAtom } from '../features/realtime/realtimeAtoms';
import { openSearchWithAtom, searchOpenAtom, setSearchOpenAtom } from '../features/search/searchAtoms';
import { afterPaint } from '../lib/afterPaint';
import { ChunkBoundary } from '../ui/ChunkBoundary';
import { CrashBoundary } from '../ui/CrashBoundary';
import { Loading } from '../ui/Loading';
import { MobileBar } from './MobileBar';
import { lazyScreen } from '../ui/lazyScreen';
import { initialRoute, initNavigationAtom, restoreRouteAtom, routeAtom, type Route } from '../lib/navigation';
import type { SearchIdle } from '../features/search/SearchPanel';
import { TopBar } from './TopBar';
import { useRealtime } from './useRealtime';
import './Shell.css';

// The feed is the first screen and ships with the shell; every other page is
// its own chunk, fetched the first time it is opened (issue 16: the first
// screen loads only what it needs). lazyScreen rather than React.lazy: a
// chunk that failed to load can be imported again (the page's ChunkBoundary).
const FriendsPage = lazyScreen(() => import('../features/friends/FriendsPage').then((m) => m.FriendsPage)).Component;
const SettingsPage = lazyScreen(() => import('../features/settings/SettingsPage').then((m) => m.SettingsPage)).Component;
const ProfilePage = lazyScreen(() => import('../features/profile/ProfilePage').then((m) => m.ProfilePage)).Component;
const ModerationPage = lazyScreen(() => import('../features/moderation/ModerationPage').then((m) => m.ModerationPage)).Component;
const AdminPage = lazyScreen(() => import('../features/admin/AdminPage').then((m) => m.AdminPage)).Component;
// The post page opens its comments: their chunk comes with the page's (a
// failure there is the comments' to retry, not the page's).
const PostPage = lazyScreen(() =>
  Promise.all([import('../features/posts/PostPage'), LazyComments.preload().catch(() => undefined)]).then(([m]) => m.PostPage),
).Component;
const MessagesPage = lazyScreen(() => import('../features/messages/MessagesPage').then((m) => m.MessagesPage)).Component;
const GroupsPage = lazyScreen(() => import('../features/groups/GroupsPage').then((m) => m.GroupsPage)).Component;
const GroupPage = lazyScreen(() => import('../features/groups/GroupPage').then((m) => m.GroupPage)).Component;
const LiveView = lazyScreen(() => import('../features/groups/LiveView').then((m) => m.LiveView)).Component;
const TagPage = lazyScreen(() => import('../features/tags/TagPage').then((m) => m.TagPage)).Component;
// What is trending, in the search overlay while nothing is typed.
const TrendingInSearch = lazyScreen(() => import('../features/tags/TrendingList').then((m) => m.TrendingInSearch)).Component;
// Accept / Decline in the notifications panel: fetched when an invitation shows.
const GroupInvitationActions = lazyScreen(() =>
  import('../features/groups/GroupInvitationActions').then((m) => m.GroupInvitationActions),
).Component;

// The search overlay and the notifications panel: only a click (or a
// /search?q= link) opens them, so each is a chunk of its own out of the
// feed's first load (issue 27's budget), fetched when the browser is first
// idle after paint.
const LazySearchPanel = lazyScreen<{ Idle?: SearchIdle }>(() => import('../features/search/SearchPanel').then((m) => m.SearchPanel));
const LazyNotificationsPanel = lazyScreen(() => import('../features/notifications/NotificationsPanel').then((m) => m.NotificationsPanel));

/**
 * An overlay while its atom says it is open. Each renders nothing closed and
 * keeps its state in its feature's atoms, so nothing is lost by unmounting
 * it. A component of its own, so that opening one re-renders this and not
 * the shell's page.
 */
function Overlay({ open, children }: { open: Atom<boolean>; children: ReactNode }) {
  if (!useAtomValue(open)) return null;
  return (
    <ChunkBoundary className="chunk-error--inline">
      <Suspense fallback={null}>{children}</Suspense>
    </ChunkBoundary>
  );
}

/** What a page shows while its chunk loads. */
export function PageLoading() {
  return <Loading className="page-loading" label="Loading…" />;
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'feed':
      return <FeedPage />;
    case 'friends':
      return <FriendsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'moderation':
      return <ModerationPage />;
    case 'admin':
      return <AdminPage />;
    case 'profile':
      return <ProfilePage key={route.userId ?? 'me'} />;
    case 'post':
      return <PostPage key={route.postId} postId={route.postId} />;
    case 'groups':
      return <GroupsPage />;
    case 'group':
      return <GroupPage key={route.handle} handle={route.handle} />;
    case 'messages':
      return <MessagesPage />;
    case 'conversation':
      return <MessagesPage conversationId={route.conversationId} />;
    case 'tag':
      return <TagPage key={route.tag} tag={route.tag} />;
    case 'groupLive':
      // Shown without the shell (see Shell); never reached here.
      return null;
  }
}

/**
 * Starts what the shell's first render should have (main.tsx waits a little
 * for it, app/App's preloadFirstScreen): on the feed, its first page, so
 * the posts come in that render rather than in one more after it.
 */
export function prepareShell(store: ReturnType<typeof createStore>): Promise<void> {
  if (initialRoute().page !== 'feed') return Promise.resolve();
  return store.set(primeFeedAtom).then(() => {
    // A first page shorter than the feed's own — the one the document
    // carried, only what fills a first screen (issue 27) — is followed by
    // the next page once the app is on screen, as if the reader had scrolled.
    if (store.get(feedHasMoreAtom) && store.get(feedPostIdsAtom).length < FEED_PAGE_SIZE) {
      afterPaint(() => void store.set(loadMoreFeedAtom));
    }
  });
}

/** The signed-in application: top bar, the current page, the mobile bar, overlays. */
export function Shell() {
  const initNavigation = useSetAtom(initNavigationAtom);
  const restoreRoute = useSetAtom(restoreRouteAtom);
  const refreshUser = useSetAtom(refreshCurrentUserAtom);
  const refreshPending = useSetAtom(refreshPendingRequestsAtom);
  const closeSearch = useSetAtom(setSearchOpenAtom);
  const openSearch = useSetAtom(openSearchWithAtom);
  const route = useAtomValue(routeAtom);
  const socketStatus = useAtomValue(socketStatusAtom);
  const [ready, setReady] = useState(false);
  // The query of a /search?q= link the app was opened with, until the
  // overlay opens with it.
  const [deepSearch, setDeepSearch] = useState<string | null>(null);

  useLayoutEffect(() => {
    setDeepSearch(initNavigation());
    setReady(true);
    const onPop = (e: PopStateEvent) => restoreRoute(e.state);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [initNavigation, restoreRoute]);

  useEffect(
    () =>
      afterPaint(() => {
        // docs/product.md §4: the saved auth state is validated at start-up (a 401 signs out).
        void refreshUser();
        void refreshPending();
        preloadPostParts();
        preloadWhenIdle(LazySearchPanel, LazyNotificationsPanel);
      }),
    [refreshUser, refreshPending],
  );

  // docs/product.md §2.9: the search overlay closes on navigation / page change.
  useEffect(() => {
    closeSearch(false);
  }, [route, closeSearch]);

  // After the close above: a /search?q= link opens the overlay over the feed.
  useEffect(() => {
    if (deepSearch === null) return;
    openSearch(deepSearch);
    setDeepSearch(null);
  }, [deepSearch, openSearch]);

  useRealtime();
  useOwnAuthorSync();

  // Just signed in: focus the composer (or the page's heading), not the body.
  useEffect(() => (takeLandingFocus() ? focusLandingWhenReady() : undefined), []);

  // The event big screen (issue 18) has no chrome: no bars, no overlays.
  if (ready && route.page === 'groupLive') {
    return (
      <CrashBoundary resetKey={route} className="chunk-error--page">
        <ChunkBoundary resetKey={route} className="chunk-error--page">
          <Suspense fallback={<PageLoading />}>
            <LiveView key={route.handle} handle={route.handle} />
          </Suspense>
        </ChunkBoundary>
      </CrashBoundary>
    );
  }

  return (
    <div className="shell">
      {/* The first Tab stop: past the bars to the page (issue 27 item 7). */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          const main = document.getElementById('main');
          main?.focus();
          main?.scrollIntoView({ block: 'start' });
        }}
      >
        Skip to main content
      </a>
      <TopBar />
      {socketStatus === 'reconnecting' && (
        <p className="shell__offline" role="status">
          Live updates paused — reconnecting…
        </p>
      )}
      <main className="shell__main" id="main" tabIndex={-1}>
        {ready && (
          // A page whose chunk does not load says so here; the bars stay.
          // A page that fails while rendering (a bug) says so too.
          <CrashBoundary resetKey={route} className="chunk-error--page">
            <ChunkBoundary resetKey={route} className="chunk-error--page">
              <Suspense fallback={<PageLoading />}>
                <Page route={route} />
              </Suspense>
            </ChunkBoundary>
          </CrashBoundary>
        )}
      </main>
      <MobileBar />
      <Overlay open={searchOpenAtom}>
        <LazySearchPanel.Component Idle={TrendingInSearch} />
      </Overlay>
      <Overlay open={notificationsPanelOpenAtom}>
        <LazyNotificationsPanel.Component InvitationActions={GroupInvitationActions} />
      </Overlay>
    </div>
  );
}
