import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { fullDate } from '../../lib/time';
import { Avatar } from '../../ui/Avatar';
import { MoreIcon, SmileIcon } from '../../ui/icons';
import { RichText } from '../search/RichText';
import { MessageImages, PendingImages } from './MessageImages';
import { type Message, type PendingMessage } from './model';
import { clockTime, MSG_UNSENT, QUICK_REACTIONS, type ThreadRow } from './view';

export interface RowActions {
  reply: (m: Message) => void;
  edit: (m: Message) => void;
  unsend: (m: Message) => void;
  report: (m: Message) => void;
  react: (m: Message, emoji: string | null) => void;
  retry: (p: PendingMessage) => void;
  discard: (p: PendingMessage) => void;
  jumpTo: (seq: number) => void;
  /** A row took focus (click or keys): it becomes the one Tab returns to. */
  focused: (key: string) => void;
}

type Popup = 'menu' | 'react' | null;

/** A small menu: arrow keys move, Escape closes and gives focus back. */
function PopupMenu({ label, onClose, children }: { label: string; onClose: () => void; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (step !== 0 && items.length > 0) {
      e.preventDefault();
      e.stopPropagation();
      items[(at + step + items.length) % items.length]?.focus();
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };
  return (
    <div
      ref={ref}
      className="msg__popup"
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onClose();
      }}
    >
      {children}
    </div>
  );
}

function Reactions({ m, onReact, tabbable }: { m: Message; onReact: (emoji: string | null) => void; tabbable: boolean }) {
  if (m.reactions.length === 0 || m.unsent) return null;
  return (
    <div className="msg__reactions">
      {m.reactions.map((r) => (
        <button
          key={r.emoji}
          type="button"
          className={`msg__reaction${r.mine ? ' is-mine' : ''}`}
          aria-pressed={r.mine}
          aria-label={`${r.emoji} ${r.count} ${r.count === 1 ? 'reaction' : 'reactions'}${r.mine ? ', including yours' : ''}`}
          tabIndex={tabbable ? 0 : -1}
          onClick={() => onReact(r.mine ? null : r.emoji)}
        >
          <span aria-hidden="true">{r.emoji}</span>
          {r.count > 1 && <span aria-hidden="true">{r.count}</span>}
        </button>
      ))}
    </div>
  );
}

/**
 * One row of a thread: a day separator, a message (with its reply quote,
 * reactions, and the menu of what can be done with it), or a message still
 * being sent (pending, or failed with Retry). Rows are reached with the
 * arrow keys (the thread moves focus); Tab from a row reaches its buttons.
 */
export const MessageRow = memo(function MessageRow({
  row,
  group,
  active,
  status,
  actions,
}: {
  row: ThreadRow;
  group: boolean;
  /** The row Tab lands on in the thread (roving focus). */
  active: boolean;
  /** Under my last message: "Seen", "Seen by 3"… */
  status?: string;
  actions: RowActions;
}) {
  const [popup, setPopup] = useState<Popup>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const reactRef = useRef<HTMLButtonElement>(null);

  if (row.kind === 'day') {
    return (
      <div className="msg-day" role="separator" aria-label={row.label}>
        <span aria-hidden="true">{row.label}</span>
      </div>
    );
  }

  if (row.kind === 'pending') {
    const p = row.pending;
    return (
      <div className={`msg msg--mine msg--${p.status}`} data-row-key={row.key} tabIndex={active ? 0 : -1} onFocus={() => actions.focused(row.key)}>
        {p.replyTo && (
          <div className="msg__quote">
            <span className="msg__quote-name">{p.replyTo.senderName}</span>
            <span className="msg__quote-text">{p.replyTo.snippet || MSG_UNSENT}</span>
          </div>
        )}
        <PendingImages images={p.images} />
        {p.body && (
          <div className="msg__bubble">
            <span className="visually-hidden">You: </span>
            <span className="msg__text">{p.body}</span>
          </div>
        )}
        {p.status === 'pending' ? (
          <p className="msg__state">{p.images.length > 0 && p.progress !== undefined && p.progress < 100 ? `Sending… ${p.progress}%` : 'Sending…'}</p>
        ) : (
          <div className="msg__failed" role="alert">
            <span>{p.error || 'Not sent.'}</span>
            <button type="button" className="link-button" onClick={() => actions.retry(p)}>
              Retry
            </button>
            <button type="button" className="link-button" onClick={() => actions.discard(p)}>
              Delete
            </button>
          </div>
        )}
      </div>
    );
  }

  const m = row.message;
  const mine = row.mine;
  const close = (back?: HTMLElement | null) => {
    setPopup(null);
    back?.focus();
  };
  const tabbable = active;
  const who = mine ? 'You' : m.sender.name;

  return (
    <div
      className={`msg ${mine ? 'msg--mine' : 'msg--theirs'}${row.firstOfRun ? ' is-first' : ''}${row.lastOfRun ? ' is-last' : ''}`}
      data-row-key={row.key}
      data-seq={m.seq}
      tabIndex={active ? 0 : -1}
      aria-label={`${who}, ${clockTime(m.createdAt)}${m.editedAt ? ', edited' : ''}`}
      role="article"
      onFocus={(e) => {
        if (e.target === e.currentTarget) actions.focused(row.key);
      }}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        if (e.key === 'Enter' || e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
          e.preventDefault();
          setPopup('menu');
        }
      }}
    >
      {!mine && row.lastOfRun && group && (
        <span className="msg__avatar" aria-hidden="true">
          <Avatar name={m.sender.name} url={m.sender.avatarUrl} size={28} />
        </span>
      )}
      <div className="msg__body">
        {!mine && group && row.firstOfRun && <span className="msg__name">{m.sender.name}</span>}
        {m.replyTo && (
          <button type="button" className="msg__quote" tabIndex={tabbable ? 0 : -1} onClick={() => actions.jumpTo(m.replyTo!.seq)}>
            <span className="msg__quote-name">Reply to {m.replyTo.senderName}</span>
            <span className="msg__quote-text">{m.replyTo.snippet || MSG_UNSENT}</span>
          </button>
        )}
        {!m.unsent && <MessageImages images={m.images} senderName={who === 'You' ? 'you' : m.sender.name} tabbable={tabbable} />}
        {(m.unsent || m.body !== '' || m.images.length === 0) && (
          <div className={`msg__bubble${m.unsent ? ' is-unsent' : ''}`} title={fullDate(m.createdAt)}>
            {m.unsent ? (
              <span className="msg__text">{MSG_UNSENT}</span>
            ) : (
              <span className="msg__text">
                <RichText text={m.body} />
              </span>
            )}
            {m.editedAt && !m.unsent && <span className="msg__edited"> (edited)</span>}
          </div>
        )}
        <Reactions m={m} tabbable={tabbable} onReact={(emoji) => actions.react(m, emoji)} />
        {row.lastOfRun && (
          <p className="msg__meta">
            <time dateTime={m.createdAt}>{clockTime(m.createdAt)}</time>
            {status && <span className="msg__seen"> · {status}</span>}
          </p>
        )}
        {!row.lastOfRun && status && <p className="msg__meta msg__seen">{status}</p>}
      </div>
      {!m.unsent && (
        <div className="msg__tools">
          <button
            ref={reactRef}
            type="button"
            className="icon-button msg__tool"
            aria-label="React"
            aria-haspopup="menu"
            aria-expanded={popup === 'react'}
            tabIndex={tabbable ? 0 : -1}
            onClick={() => setPopup(popup === 'react' ? null : 'react')}
          >
            <SmileIcon size={18} />
          </button>
          <button
            ref={moreRef}
            type="button"
            className="icon-button msg__tool"
            aria-label="Message actions"
            aria-haspopup="menu"
            aria-expanded={popup === 'menu'}
            tabIndex={tabbable ? 0 : -1}
            onClick={() => setPopup(popup === 'menu' ? null : 'menu')}
          >
            <MoreIcon size={18} />
          </button>
        </div>
      )}
      {popup === 'react' && (
        <PopupMenu label="React with" onClose={() => close(reactRef.current)}>
          <div className="msg__emoji-row">
            {QUICK_REACTIONS.map((emoji) => {
              const had = m.reactions.find((r) => r.emoji === emoji)?.mine === true;
              return (
                <button
                  key={emoji}
                  type="button"
                  role="menuitem"
                  className={`msg__emoji${had ? ' is-mine' : ''}`}
                  aria-label={had ? `Remove ${emoji}` : `React with ${emoji}`}
                  onClick={() => {
                    actions.react(m, had ? null : emoji);
                    close(reactRef.current);
                  }}
                >
                  {emoji}
                </button>
              );
            })}
          </div>
        </PopupMenu>
      )}
      {popup === 'menu' && (
        <PopupMenu label="Message actions" onClose={() => close(moreRef.current ?? null)}>
          <button type="button" role="menuitem" className="msg__menu-item" onClick={() => { setPopup(null); actions.reply(m); }}>
            Reply
          </button>
          {mine && !m.unsent && (
            <button type="button" role="menuitem" className="msg__menu-item" onClick={() => { setPopup(null); actions.edit(m); }}>
              Edit
            </button>
          )}
          {mine && !m.unsent && (
            <button type="button" role="menuitem" className="msg__menu-item msg__menu-item--danger" onClick={() => { setPopup(null); actions.unsend(m); }}>
              Unsend
            </button>
          )}
          {!mine && !m.unsent && (
            <button type="button" role="menuitem" className="msg__menu-item msg__menu-item--danger" onClick={() => { setPopup(null); actions.report(m); }}>
              Report
            </button>
          )}
        </PopupMenu>
      )}
    </div>
  );
});
