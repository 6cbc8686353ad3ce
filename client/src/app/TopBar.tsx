import { useAtomValue, useSetAtom } from 'jotai';
import { badgeText } from '../ui/badge';
import { hasPendingRequestsAtom } from '../features/friends/friendsAtoms';
import { openNotificationsPanelAtom, unreadCountAtom } from '../features/notifications/notificationsAtoms';
import { setSearchOpenAtom } from '../features/search/searchAtoms';
import { unreadMessagesAtom } from '../features/messages/unread';
import { BellIcon, FriendsIcon, GroupsIcon, HomeIcon, MessageIcon, SearchIcon } from '../ui/icons';
import { AvatarMenu } from './AvatarMenu';
import { productNameAtom } from '../api/config';
import { navigateAtom, routeAtom, type Route } from '../lib/navigation';

/** The Groups entry is current on the directory and on a group's page. */
export function groupsActive(route: Route): boolean {
  return route.page === 'groups' || route.page === 'group';
}

export { badgeText };

/** The Messages entry is current on the list and in a conversation. */
export function messagesActive(route: Route): boolean {
  return route.page === 'messages' || route.page === 'conversation';
}

/** docs/product.md §2.9 top bar. */
export function TopBar() {
  const productName = useAtomValue(productNameAtom);
  const route = useAtomValue(routeAtom);
  const navigate = useSetAtom(navigateAtom);
  const openSearch = useSetAtom(setSearchOpenAtom);
  const openNotifications = useSetAtom(openNotificationsPanelAtom);
  const unread = useAtomValue(unreadCountAtom);
  const pending = useAtomValue(hasPendingRequestsAtom);
  const unreadMessages = useAtomValue(unreadMessagesAtom);

  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <button type="button" className="top-bar__logo" onClick={() => navigate({ page: 'feed' })}>
          <span className="top-bar__mark" aria-hidden="true">
            {productName.charAt(0).toUpperCase()}
          </span>
          {/* The name is the visible text (axe: label-content-name-mismatch); " home" only for screen readers. */}
          <span className="top-bar__name">{productName}</span>
          <span className="visually-hidden"> home</span>
        </button>

        <div className="top-bar__search">
          <SearchIcon size={18} />
          <input
            className="top-bar__search-input"
            type="search"
            readOnly
            placeholder={`Search ${productName}...`}
            aria-label={`Search ${productName}`}
            onClick={() => openSearch(true)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                openSearch(true);
              }
            }}
          />
        </div>

        <nav className="top-bar__nav" aria-label="Main">
          <button
            type="button"
            className={`top-bar__nav-btn${route.page === 'feed' ? ' is-active' : ''}`}
            aria-current={route.page === 'feed' ? 'page' : undefined}
            onClick={() => navigate({ page: 'feed' })}
          >
            <HomeIcon />
            <span>Home</span>
          </button>
          <button
            type="button"
            className={`top-bar__nav-btn${route.page === 'friends' ? ' is-active' : ''}${pending ? ' has-pending' : ''}`}
            aria-current={route.page === 'friends' ? 'page' : undefined}
            onClick={() => navigate({ page: 'friends' })}
            aria-label={pending ? 'Friends (pending requests)' : 'Friends'}
          >
            <FriendsIcon />
            <span>Friends</span>
          </button>
          <button
            type="button"
            className={`top-bar__nav-btn${groupsActive(route) ? ' is-active' : ''}`}
            aria-current={groupsActive(route) ? 'page' : undefined}
            onClick={() => navigate({ page: 'groups' })}
          >
            <GroupsIcon />
            <span>Groups</span>
          </button>
          <button
            type="button"
            className={`top-bar__nav-btn${messagesActive(route) ? ' is-active' : ''}`}
            aria-current={messagesActive(route) ? 'page' : undefined}
            onClick={() => navigate({ page: 'messages' })}
          >
            <MessageIcon />
            <span>Messages</span>
            {unreadMessages > 0 && (
              <>
                <span className="badge top-bar__nav-badge">{badgeText(unreadMessages)}</span>
                <span className="visually-hidden"> unread</span>
              </>
            )}
          </button>
        </nav>

        <div className="top-bar__actions">
          <button
            type="button"
            className={`icon-button top-bar__bell${unread > 0 ? ' is-pulsing' : ''}`}
            onClick={() => openNotifications(true)}
          >
            <BellIcon />
            <span className="visually-hidden">Notifications</span>
            {unread > 0 && (
              <>
                <span className="badge top-bar__badge">{badgeText(unread)}</span>
                <span className="visually-hidden"> unread</span>
              </>
            )}
          </button>
          <AvatarMenu />
        </div>
      </div>
    </header>
  );
}
