import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useLayoutEffect, useState } from 'react';
import { refreshCurrentUserAtom } from '../features/auth/authAtoms';
import { FeedPage } from '../features/feed/FeedPage';
import { FriendsPage } from '../features/friends/FriendsPage';
import { refreshPendingRequestsAtom } from '../features/friends/friendsAtoms';
import { NotificationsPanel } from '../features/notifications/NotificationsPanel';
import { PostPage } from '../features/posts/PostPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { socketStatusAtom } from '../features/realtime/realtimeAtoms';
import { SearchPanel } from '../features/search/SearchPanel';
import { setSearchOpenAtom } from '../features/search/searchAtoms';
import { ModerationPage } from '../features/moderation/ModerationPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { MobileBar } from './MobileBar';
import { initNavigationAtom, restoreRouteAtom, routeAtom, type Route } from './navigation';
import { TopBar } from './TopBar';
import { useRealtime } from './useRealtime';
import './Shell.css';

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
    case 'profile':
      return <ProfilePage key={route.userId ?? 'me'} />;
    case 'post':
      return <PostPage key={route.postId} postId={route.postId} />;
  }
}

/** The signed-in application: top bar, the current page, the mobile bar, overlays. */
export function Shell() {
  const initNavigation = useSetAtom(initNavigationAtom);
  const restoreRoute = useSetAtom(restoreRouteAtom);
  const refreshUser = useSetAtom(refreshCurrentUserAtom);
  const refreshPending = useSetAtom(refreshPendingRequestsAtom);
  const closeSearch = useSetAtom(setSearchOpenAtom);
  const route = useAtomValue(routeAtom);
  const socketStatus = useAtomValue(socketStatusAtom);
  const [ready, setReady] = useState(false);

  useLayoutEffect(() => {
    initNavigation();
    setReady(true);
    const onPop = (e: PopStateEvent) => restoreRoute(e.state);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [initNavigation, restoreRoute]);

  useEffect(() => {
    // Spec §4: the saved auth state is validated at start-up (a 401 signs out).
    void refreshUser();
    void refreshPending();
  }, [refreshUser, refreshPending]);

  // Spec §2.9: the search overlay closes on navigation / page change.
  useEffect(() => {
    closeSearch(false);
  }, [route, closeSearch]);

  useRealtime();

  return (
    <div className="shell">
      <TopBar />
      {socketStatus === 'reconnecting' && (
        <p className="shell__offline" role="status">
          Live updates paused — reconnecting…
        </p>
      )}
      <main className="shell__main" id="main">
        {ready && <Page route={route} />}
      </main>
      <MobileBar />
      <SearchPanel />
      <NotificationsPanel />
    </div>
  );
}
