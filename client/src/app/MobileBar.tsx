import { useAtomValue, useSetAtom } from 'jotai';
import { hasPendingRequestsAtom } from '../features/friends/friendsAtoms';
import { unreadMessagesAtom } from '../features/messages/unread';
import { badgeText } from '../ui/badge';
import { FriendsIcon, GroupsIcon, HomeIcon, MessageIcon, UserIcon } from '../ui/icons';
import { navigateAtom, routeAtom } from '../lib/navigation';
import { groupsActive, messagesActive } from './TopBar';

/**
 * docs/product.md §2.9: the mobile bottom bar — Feed, Friends, Profile (Profile shows
 * the own profile); Groups (issue 18) sits between Friends and Profile, and
 * Messages (issue 29, with its unread badge) after Groups.
 */
export function MobileBar() {
  const route = useAtomValue(routeAtom);
  const navigate = useSetAtom(navigateAtom);
  const pending = useAtomValue(hasPendingRequestsAtom);
  const unreadMessages = useAtomValue(unreadMessagesAtom);
  const item = (active: boolean) => `mobile-bar__item${active ? ' is-active' : ''}`;
  return (
    <nav className="mobile-bar" aria-label="Mobile">
      <button type="button" className={item(route.page === 'feed')} onClick={() => navigate({ page: 'feed' })} aria-current={route.page === 'feed' ? 'page' : undefined}>
        <HomeIcon />
        <span>Feed</span>
      </button>
      <button
        type="button"
        className={`${item(route.page === 'friends')}${pending ? ' has-pending' : ''}`}
        onClick={() => navigate({ page: 'friends' })}
        aria-current={route.page === 'friends' ? 'page' : undefined}
      >
        <FriendsIcon />
        <span>Friends</span>
      </button>
      <button
        type="button"
        className={item(groupsActive(route))}
        onClick={() => navigate({ page: 'groups' })}
        aria-current={groupsActive(route) ? 'page' : undefined}
      >
        <GroupsIcon />
        <span>Groups</span>
      </button>
      <button
        type="button"
        className={item(messagesActive(route))}
        onClick={() => navigate({ page: 'messages' })}
        aria-current={messagesActive(route) ? 'page' : undefined}
      >
        <span className="mobile-bar__icon">
          <MessageIcon />
          {unreadMessages > 0 && <span className="badge mobile-bar__badge">{badgeText(unreadMessages)}</span>}
        </span>
        <span>Messages</span>
        {unreadMessages > 0 && <span className="visually-hidden"> ({unreadMessages} unread)</span>}
      </button>
      <button
        type="button"
        className={item(route.page === 'profile' && !route.userId)}
        // No user id: the stored viewed-user id is cleared and the own profile shows.
        onClick={() => navigate({ page: 'profile' })}
        aria-current={route.page === 'profile' ? 'page' : undefined}
      >
        <UserIcon />
        <span>Profile</span>
      </button>
    </nav>
  );
}
