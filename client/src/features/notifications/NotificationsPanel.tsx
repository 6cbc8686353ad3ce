import { useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { navigateAtom, presetFriendsTab } from '../../lib/navigation';
import { fullDate, relativeTime } from '../../lib/time';
import { Avatar } from '../../ui/Avatar';
import { ChunkBoundary } from '../../ui/ChunkBoundary';
import { TrashIcon } from '../../ui/icons';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { useRecover } from '../../ui/connectivity';
import { OfflineNotice } from '../../ui/OfflineNotice';
import { notificationTarget, type AppNotification } from './model';
import { AcceptRequestButton, PostHint } from './NotificationExtras';
import {
  notificationsOfflineSavedAtAtom,
  refreshNotificationsAtom,
  clearNotificationAtom,
  loadMoreNotificationsAtom,
  markAllAsReadAtom,
  markAsReadAtom,
  notificationsAtom,
  notificationsHasMoreAtom,
  notificationsLoadingMoreAtom,
  notificationsPanelOpenAtom,
  notificationsStatusAtom,
  openNotificationsPanelAtom,
  unreadCountAtom,
} from './notificationsAtoms';
import './Notifications.css';

/**
 * Accept / Decline on a group invitation: the groups feature's, which sits
 * above this one, so the shell passes it in (as a lazy part, so that
 * groups' code stays out of the first screen).
 */
export type InvitationActions = ComponentType<{ group: { handle: string; name: string } }>;

/** Re-renders every 30 s so relative times stay true while the panel is open. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

function Item({
  n,
  now,
  onOpen,
  InvitationActions,
}: {
  n: AppNotification;
  now: number;
  onOpen: (n: AppNotification) => void;
  InvitationActions: InvitationActions | undefined;
}) {
  const clear = useSetAtom(clearNotificationAtom);
  return (
    <li className={`notification${n.read ? '' : ' is-unread'}`} data-notification-id={n.id}>
      <button type="button" className="notification__main" onClick={() => onOpen(n)}>
        <Avatar name={n.senderName || n.message} url={n.avatar} />
        <span className="notification__text">
          <span className="notification__message">{n.message}</span>
          {n.postSnippet ? (
            <span className="notification__snippet">“{n.postSnippet}”</span>
          ) : (
            // No text from the server (a photo-only post): the post's own hint.
            n.postId && (n.type === 'like' || n.type === 'comment' || n.type === 'mention' || n.type === 'repost') && <PostHint postId={n.postId} />
          )}
          <time className="notification__time" dateTime={n.timestamp} title={fullDate(n.timestamp)}>
            {relativeTime(n.timestamp, now)}
          </time>
        </span>
        {!n.read && (
          <span className="notification__dot">
            <span className="visually-hidden">Unread</span>
          </span>
        )}
      </button>
      {n.type === 'friend_request' && n.userId && <AcceptRequestButton senderId={n.userId} />}
      {n.type === 'group_invitation' && n.group && InvitationActions && (
        <ChunkBoundary className="chunk-error--inline">
          <Suspense fallback={null}>
            <InvitationActions group={n.group} />
          </Suspense>
        </ChunkBoundary>
      )}
      <button type="button" className="icon-button notification__delete" onClick={() => void clear(n.id)} aria-label="Delete notification">
        <TrashIcon size={18} />
      </button>
    </li>
  );
}

/**
 * docs/product.md §2.11 notifications panel: a centred modal (max 85% of the viewport
 * high) titled Notifications; 'Mark all read' only while unread items exist;
 * the empty state; Escape and an outside click close it (the Modal does).
 * Clicking an item marks it read and goes where it points.
 */
export function NotificationsPanel({ InvitationActions }: { InvitationActions?: InvitationActions }) {
  const open = useAtomValue(notificationsPanelOpenAtom);
  const setOpen = useSetAtom(openNotificationsPanelAtom);
  const list = useAtomValue(notificationsAtom);
  const unread = useAtomValue(unreadCountAtom);
  const status = useAtomValue(notificationsStatusAtom);
  const hasMore = useAtomValue(notificationsHasMoreAtom);
  const loadingMore = useAtomValue(notificationsLoadingMoreAtom);
  const loadMore = useSetAtom(loadMoreNotificationsAtom);
  const markAsRead = useSetAtom(markAsReadAtom);
  const markAll = useSetAtom(markAllAsReadAtom);
  const navigate = useSetAtom(navigateAtom);
  const now = useNow(open);
  const anyUnread = unread > 0 || list.some((n) => !n.read);
  const offlineSavedAt = useAtomValue(notificationsOfflineSavedAtAtom);
  const refresh = useSetAtom(refreshNotificationsAtom);
  // Shown offline: read again when the network is back (while the panel is open).
  useRecover(open && status === 'offline', () => void refresh());

  const onOpen = (n: AppNotification) => {
    void markAsRead(n.id);
    const target = notificationTarget(n);
    if (!target) return;
    setOpen(false);
    if (target.page === 'friends') {
      presetFriendsTab(target.tab);
      navigate({ page: 'friends' });
    } else navigate(target);
  };

  return (
    <Modal open={open} onClose={() => setOpen(false)} title="Notifications" size="md" className="notifications-panel">
      {status === 'offline' && <OfflineNotice savedAt={offlineSavedAt} what="your notifications" />}
      {anyUnread && list.length > 0 && (
        <div className="notifications-panel__bar">
          <button type="button" className="link-button" onClick={() => void markAll()}>
            Mark all read
          </button>
        </div>
      )}
      {list.length === 0 ? (
        status === 'loading' ? (
          <Loading className="notifications-panel__loading" label="Loading notifications…" />
        ) : status === 'offline' ? null : (
          <div className="empty-state">
            <p className="empty-state__title">No new notifications</p>
            <p className="empty-state__text">We'll let you know when something new happens</p>
          </div>
        )
      ) : (
        <ul className="notifications-panel__list" aria-label="Notifications list">
          {list.map((n) => (
            <Item key={n.id || n.timestamp} n={n} now={now} onOpen={onOpen} InvitationActions={InvitationActions} />
          ))}
        </ul>
      )}
      {hasMore && list.length > 0 && (
        <button type="button" className="button button--secondary button--block notifications-panel__more" disabled={loadingMore} onClick={() => void loadMore()}>
          {loadingMore ? 'Loading…' : 'Show older notifications'}
        </button>
      )}
    </Modal>
  );
}
