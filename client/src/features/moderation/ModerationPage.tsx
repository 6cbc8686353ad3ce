import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom, pathOf, type Route } from '../../lib/navigation';
import { Modal } from '../../ui/Modal';
import { showToastAtom } from '../../ui/toast';
import { AdminPanel } from './AdminPanel';
import { dismissItem, fetchQueue, removeItem, suspendUser, type QueueItem } from './moderationApi';
import { useCapabilities } from './useCapabilities';
import '../safety/Safety.css';
import './Moderation.css';

type Action = 'dismiss' | 'remove' | 'suspend';

const ACTION_TEXT: Record<Action, { title: string; confirm: string; done: string }> = {
  dismiss: { title: 'Dismiss the reports?', confirm: 'Dismiss', done: 'Reports dismissed' },
  remove: { title: 'Remove this content?', confirm: 'Remove', done: 'Content removed; the author was told why' },
  suspend: { title: 'Suspend this account?', confirm: 'Suspend', done: 'Account suspended' },
};

const REASON_LABELS: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate: 'Hate',
  nudity: 'Nudity',
  self_harm: 'Self-harm',
  other: 'Other',
};

/**
 * Where a queue item is: a post's page, a comment's post's page, or the
 * profile. Moderators still open an item hidden from everyone else (removed,
 * or its author suspended): the way back to it from the queue.
 */
export function itemRoute(item: QueueItem): Route | null {
  if (item.itemType === 'post' && item.itemId) return { page: 'post', postId: item.itemId };
  if (item.itemType === 'comment' && item.postId) return { page: 'post', postId: item.postId };
  if (item.itemType === 'profile' && item.authorId) return { page: 'profile', userId: item.authorId };
  return null;
}

const OPEN_LABEL: Record<QueueItem['itemType'], string> = {
  post: 'Open post',
  comment: 'Open the post',
  profile: 'Open profile',
};

/** /moderation: open reports grouped by item with counts, the item in context, and the moderators' actions. */
export function ModerationPage() {
  const toast = useSetAtom(showToastAtom);
  const navigate = useSetAtom(navigateAtom);
  const [items, setItems] = useState<QueueItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error' | 'forbidden'>('loading');
  const [pending, setPending] = useState<{ item: QueueItem; action: Action } | null>(null);
  const [reason, setReason] = useState('');
  const [days, setDays] = useState(7);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const caps = useCapabilities(true);

  const load = useCallback(async (after: string | null) => {
    try {
      const page = await fetchQueue(after);
      setItems((prev) => (after ? [...prev, ...page.items] : page.items));
      setCursor(page.nextCursor);
      setStatus('ready');
    } catch (err) {
      setStatus(isApiError(err) && err.status === 403 ? 'forbidden' : 'error');
    }
  }, []);

  useEffect(() => {
    void load(null);
  }, [load]);

  const open = (item: QueueItem, action: Action) => {
    setPending({ item, action });
    setReason(action === 'dismiss' ? 'Does not break the rules' : '');
    setError('');
  };

  const act = async (e: FormEvent) => {
    e.preventDefault();
    if (!pending) return;
    setBusy(true);
    setError('');
    const { item, action } = pending;
    try {
      if (action === 'dismiss') await dismissItem(item, reason);
      if (action === 'remove') await removeItem(item, reason);
      if (action === 'suspend') await suspendUser(item.authorId, reason, days);
      setItems((prev) =>
        action === 'suspend'
          ? // The reports stay open: every item of the author stays, marked, to be opened and decided.
            prev.map((i) => (i.authorId === item.authorId ? { ...i, suspended: true } : i))
          : prev.filter((i) => !(i.itemType === item.itemType && i.itemId === item.itemId)),
      );
      toast({ message: ACTION_TEXT[action].done, tone: 'success' });
      setPending(null);
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  // Arrow keys move between items; buttons inside are reached with Tab.
  const onListKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const cards = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[data-queue-item]'));
    const at = cards.findIndex((c) => c.contains(document.activeElement));
    const next = cards[e.key === 'ArrowDown' ? Math.min(at + 1, cards.length - 1) : Math.max(at - 1, 0)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  return (
    <section className="moderation card" aria-labelledby="moderation-title">
      <h1 id="moderation-title" className="moderation__title">
        Moderation queue
      </h1>
      {status === 'loading' && <p aria-busy="true">Loading…</p>}
      {status === 'forbidden' && <p role="alert">Only moderators can see the moderation queue.</p>}
      {status === 'error' && <p role="alert">Could not load the queue. Please try again later.</p>}
      {status === 'ready' && items.length === 0 && (
        <div className="moderation__empty">
          <p className="moderation__empty-title">All clear</p>
          <p className="safety-empty">There are no open reports. New reports will appear here.</p>
        </div>
      )}
      <div className="moderation__list" onKeyDown={onListKey}>
        {items.map((item) => (
          <article
            key={`${item.itemType}:${item.itemId}`}
            className="moderation__item"
            tabIndex={0}
            data-queue-item
            aria-label={`${item.itemType} by ${item.authorName}, ${item.reports} report${item.reports === 1 ? '' : 's'}`}
          >
            <header className="moderation__item-head">
              <span className="moderation__badge">{item.itemType}</span>
              <strong>{item.authorName}</strong>
              <span className="moderation__count">
                {item.reports} report{item.reports === 1 ? '' : 's'}
              </span>
              {item.suspended && <span className="moderation__badge moderation__badge--danger">suspended</span>}
            </header>
            <p className="moderation__reasons">{item.reasons.map((r) => REASON_LABELS[r] ?? r).join(', ')}</p>
            {item.content && <blockquote className="moderation__content">{item.content}</blockquote>}
            {item.details.length > 0 && (
              <ul className="moderation__details">
                {item.details.slice(0, 3).map((d, i) => (
                  <li key={i}>{d}</li>
                ))}
              </ul>
            )}
            <div className="moderation__actions">
              {(() => {
                const route = itemRoute(item);
                return (
                  route && (
                    <a
                      className="button button--ghost button--sm"
                      href={pathOf(route)}
                      onClick={(e) => {
                        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
                        e.preventDefault();
                        navigate(route);
                      }}
                    >
                      {OPEN_LABEL[item.itemType]}
                    </a>
                  )
                );
              })()}
              <button type="button" className="button button--secondary button--sm" onClick={() => open(item, 'dismiss')}>
                Dismiss
              </button>
              {item.itemType !== 'profile' && !item.removed && (
                <button type="button" className="button button--danger button--sm" onClick={() => open(item, 'remove')}>
                  Remove
                </button>
              )}
              {!item.suspended && (
                <button type="button" className="button button--danger button--sm" onClick={() => open(item, 'suspend')}>
                  Suspend author
                </button>
              )}
            </div>
          </article>
        ))}
      </div>
      {cursor && (
        <button type="button" className="button button--ghost" onClick={() => void load(cursor)}>
          Show more
        </button>
      )}
      {caps.admin && <AdminPanel />}
      <Modal open={pending !== null} onClose={() => setPending(null)} title={pending ? ACTION_TEXT[pending.action].title : ''} size="sm" closable={!busy}>
        <form onSubmit={(e) => void act(e)} className="safety-report">
          <label className="safety-report__details">
            <span>Reason (recorded in the audit log{pending?.action === 'remove' ? ' and shown to the author' : ''})</span>
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} rows={3} required data-autofocus />
          </label>
          {pending?.action === 'suspend' && (
            <label className="safety-report__details">
              <span>For how long</span>
              <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
                <option value={1}>1 day</option>
                <option value={7}>7 days</option>
                <option value={30}>30 days</option>
                <option value={0}>For good</option>
              </select>
            </label>
          )}
          {error && (
            <p className="safety-report__error" role="alert">
              {error}
            </p>
          )}
          <div className="modal__actions">
            <button type="button" className="button button--secondary" onClick={() => setPending(null)} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={busy || reason.trim() === ''}>
              {pending ? ACTION_TEXT[pending.action].confirm : ''}
            </button>
          </div>
        </form>
      </Modal>
    </section>
  );
}
