import { useAtomValue, useSetAtom } from 'jotai';
import { relativeTime } from '../../lib/time';
import { Avatar } from '../../ui/Avatar';
import { Modal } from '../../ui/Modal';
import { notificationsAtom, notificationsPanelOpenAtom, openNotificationsPanelAtom } from './notificationsAtoms';

/**
 * The notifications panel's frame (spec §2.11): what arrived live this
 * session, or the empty state. The full list, mark-as-read and clearing
 * arrive with the notifications issue.
 */
export function NotificationsPanel() {
  const open = useAtomValue(notificationsPanelOpenAtom);
  const setOpen = useSetAtom(openNotificationsPanelAtom);
  const list = useAtomValue(notificationsAtom);
  return (
    <Modal open={open} onClose={() => setOpen(false)} title="Notifications" size="md" className="notifications-panel">
      {list.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">No new notifications</p>
          <p className="empty-state__text">We'll let you know when something new happens</p>
        </div>
      ) : (
        <ul className="notifications-panel__list">
          {list.map((n) => (
            <li key={n.id || n.timestamp} className="notifications-panel__item">
              <Avatar name={n.message} url={n.avatar} />
              <div>
                <p>{n.message}</p>
                <p className="muted notifications-panel__time">{relativeTime(n.timestamp)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="muted placeholder-panel__note">The full notification list is coming soon.</p>
    </Modal>
  );
}
