import { useAtomValue, useSetAtom } from 'jotai';
import { memo } from 'react';
import { navigateAtom, pathOf } from '../../lib/navigation';
import { relativeTime } from '../../lib/time';
import { Avatar } from '../../ui/Avatar';
import { badgeText } from '../../ui/badge';
import { Loading } from '../../ui/Loading';
import {
  conversationListAtom,
  conversationListHasMoreAtom,
  conversationListLoadingMoreAtom,
  conversationListStatusAtom,
  loadConversationsAtom,
  loadMoreConversationsAtom,
  typingAtom,
} from './messagesAtoms';
import { type Conversation } from './model';
import { conversationAvatar, MSG_NOT_E2E, snippetOf, typingText } from './view';

/** A click that should open the link elsewhere (new tab, window): left to the browser. */
function opensElsewhere(e: React.MouseEvent): boolean {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}

const Row = memo(function Row({ c, myId, current }: { c: Conversation; myId: string; current: boolean }) {
  const navigate = useSetAtom(navigateAtom);
  const typing = useAtomValue(typingAtom(c.id));
  const unread = c.unreadCount > 0;
  const typingLine = typing.length > 0 ? typingText(typing.map((t) => t.name.split(/\s+/)[0] ?? t.name), c.kind === 'direct') : '';
  const line = typingLine || snippetOf(c.lastMessage, myId, c.kind);
  const when = c.lastMessage?.createdAt ?? c.updatedAt;
  const href = pathOf({ page: 'conversation', conversationId: c.id });
  return (
    <li>
      <a
        href={href}
        className={`conv-row${unread ? ' is-unread' : ''}${current ? ' is-current' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={(e) => {
          if (opensElsewhere(e)) return;
          e.preventDefault();
          navigate({ page: 'conversation', conversationId: c.id });
        }}
      >
        <span aria-hidden="true">
          <Avatar name={c.title} url={conversationAvatar(c, myId)} size={44} />
        </span>
        <span className="conv-row__main">
          <span className="conv-row__top">
            <span className="conv-row__title">{c.title}</span>
            {when && <span className="conv-row__time">{relativeTime(when)}</span>}
          </span>
          <span className="conv-row__bottom">
            <span className={`conv-row__snippet${typingLine ? ' is-typing' : ''}`}>{line}</span>
            {c.muted && <span className="conv-row__muted">Muted</span>}
            {unread && (
              <span className="badge conv-row__badge">
                {badgeText(c.unreadCount)}
                <span className="visually-hidden"> unread</span>
              </span>
            )}
          </span>
        </span>
      </a>
    </li>
  );
});

/** The conversations, newest activity first: unread ones bold with their count, the last message or who is typing. */
export function ConversationList({ myId, currentId, onNew }: { myId: string; currentId: string | null; onNew: () => void }) {
  const list = useAtomValue(conversationListAtom);
  const status = useAtomValue(conversationListStatusAtom);
  const hasMore = useAtomValue(conversationListHasMoreAtom);
  const loadingMore = useAtomValue(conversationListLoadingMoreAtom);
  const reload = useSetAtom(loadConversationsAtom);
  const loadMore = useSetAtom(loadMoreConversationsAtom);

  if (status === 'loading' || status === 'idle') return <Loading className="conv-list__loading" label="Loading conversations…" />;
  if (status === 'error' && list.length === 0) {
    return (
      <div className="alert alert--error" role="alert">
        Couldn't load your conversations.
        <div className="alert__actions">
          <button type="button" className="button button--secondary button--sm" onClick={() => void reload()}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  if (list.length === 0) {
    return (
      <div className="empty-state conv-list__empty">
        <p className="empty-state__title">No messages yet</p>
        <p className="empty-state__text">Start a conversation with a friend, or a group for your class or club.</p>
        <div className="empty-state__actions">
          <button type="button" className="button button--primary" onClick={onNew}>
            New message
          </button>
        </div>
        <p className="conv-list__notice">{MSG_NOT_E2E}</p>
      </div>
    );
  }
  return (
    <>
      <ul className="conv-list" aria-label="Conversations">
        {list.map((c) => (
          <Row key={c.id} c={c} myId={myId} current={c.id === currentId} />
        ))}
      </ul>
      {hasMore && (
        <button type="button" className="button button--ghost conv-list__more" onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Show more'}
        </button>
      )}
    </>
  );
}
