import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ArrowLeftIcon, SettingsIcon } from '../../ui/icons';
import { Loading } from '../../ui/Loading';
import { showToastAtom } from '../../ui/toast';
import { VirtualList, type VirtualListHandle } from '../../ui/VirtualList';
import { currentUserAtom } from '../auth/authAtoms';
import { ReportDialog } from '../safety/ReportDialog';
import { ConversationDetails } from './ConversationDetails';
import { MessageComposer, type ComposerHandle } from './MessageComposer';
import { MessageRow, type RowActions } from './MessageRow';
import { editMessageAtom, retrySendAtom, sendMessageAtom, setReactionAtom, unsendMessageAtom } from './messageActions';
import { closeThreadAtom, conversationAtom, conversationStatusAtom, discardPendingAtom, loadOlderAtom, markReadAtom, openThreadAtom, pendingAtom, readsAtom, threadAtom, typingAtom } from './messagesAtoms';
import { reportMessage } from './actionsApi';
import { type Message } from './model';
import { conversationAvatar, readOnlyText, replyOf, seenText, textOf, threadRows, typingText, type ThreadRow } from './view';

const rowKey = (r: ThreadRow) => r.key;
const isMessageRow = (r: ThreadRow | undefined) => !!r && r.kind !== 'day';

/**
 * A conversation: its messages (windowed: a long history scrolls back a page
 * at a time without slowing), who is typing, and the composer — or, when I
 * cannot send here, the banner that says why. Keyboard: in the message list
 * ↑/↓ move between messages, Home/End go to the first and last held, Enter
 * opens a message's actions, Escape goes back to the composer.
 */
export function Thread({ conversationId, focusOnOpen = false }: { conversationId: string; focusOnOpen?: boolean }) {
  const me = useAtomValue(currentUserAtom);
  const myId = me?.id ?? '';
  const conv = useAtomValue(conversationAtom(conversationId));
  const convStatus = useAtomValue(conversationStatusAtom(conversationId));
  const thread = useAtomValue(threadAtom(conversationId));
  const pending = useAtomValue(pendingAtom(conversationId));
  const reads = useAtomValue(readsAtom(conversationId));
  const typing = useAtomValue(typingAtom(conversationId));
  const open = useSetAtom(openThreadAtom);
  const close = useSetAtom(closeThreadAtom);
  const markRead = useSetAtom(markReadAtom);
  const loadOlder = useSetAtom(loadOlderAtom);
  const send = useSetAtom(sendMessageAtom);
  const retry = useSetAtom(retrySendAtom);
  const discard = useSetAtom(discardPendingAtom);
  const edit = useSetAtom(editMessageAtom);
  const unsend = useSetAtom(unsendMessageAtom);
  const setReaction = useSetAtom(setReactionAtom);
  const navigate = useSetAtom(navigateAtom);
  const toast = useSetAtom(showToastAtom);

  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [confirmUnsend, setConfirmUnsend] = useState<Message | null>(null);
  const [unsending, setUnsending] = useState(false);
  const [reporting, setReporting] = useState<Message | null>(null);
  const [details, setDetails] = useState(false);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [atBottom, setAtBottom] = useState(true);
  const list = useRef<VirtualListHandle>(null);
  const composer = useRef<ComposerHandle>(null);
  const focusNext = useRef<string | null>(null);
  const titleId = useId();

  useEffect(() => {
    void open(conversationId);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void markRead(conversationId);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      close(conversationId);
    };
  }, [conversationId, open, close, markRead]);

  // New messages while the thread is open are read (the server's counts follow).
  const newest = thread.messages.length > 0 ? thread.messages[thread.messages.length - 1]!.seq : 0;
  useEffect(() => {
    if (newest > 0) void markRead(conversationId);
  }, [newest, conversationId, markRead]);

  // A message from someone else, arrived while open, is said once to screen readers.
  const [announce, setAnnounce] = useState('');
  const seenNewest = useRef(0);
  useEffect(() => {
    const m = thread.messages[thread.messages.length - 1];
    if (!m || !thread.loaded) return;
    if (seenNewest.current > 0 && m.seq > seenNewest.current && m.sender.id !== myId) {
      setAnnounce(`${m.sender.name}: ${textOf(m).slice(0, 200)}`);
    }
    seenNewest.current = Math.max(seenNewest.current, m.seq);
  }, [thread.messages, thread.loaded, myId]);

  const rows = useMemo(() => threadRows(thread.messages, pending, myId), [thread.messages, pending, myId]);
  const group = conv?.kind === 'group';

  // "Seen" goes under my newest message.
  const lastMine = useMemo(() => {
    for (let i = thread.messages.length - 1; i >= 0; i--) if (thread.messages[i]!.sender.id === myId) return thread.messages[i]!;
    return null;
  }, [thread.messages, myId]);
  const seen = conv && lastMine ? seenText(conv, lastMine.seq, reads, myId) : '';

  const typingLine = typingText(
    typing.map((t) => t.name.split(/\s+/)[0] ?? t.name),
    conv?.kind === 'direct',
  );
  const typingSentence = conv?.kind === 'direct' && typing.length > 0 ? `${typing[0]!.name} is typing…` : typingLine;

  // Opening a conversation from the list (on a phone the list is then hidden)
  // puts focus where one writes; an address opened afresh leaves it be.
  const canWrite = !!conv && !conv.readOnly;
  const focusedOnOpen = useRef(!focusOnOpen);
  const listShown = thread.loaded || thread.messages.length > 0;
  useEffect(() => {
    if (focusedOnOpen.current || !conv || (!canWrite && !listShown)) return;
    focusedOnOpen.current = true;
    if (canWrite) composer.current?.focus();
    else list.current?.element()?.focus();
  }, [conv, canWrite, listShown]);

  // Focus follows the keyboard once the row is rendered.
  useEffect(() => {
    const key = focusNext.current;
    if (!key) return;
    const el = list.current?.element()?.querySelector<HTMLElement>(`[data-row-key="${key}"]`);
    if (el) {
      focusNext.current = null;
      el.focus({ preventScroll: true });
    }
  });

  const moveTo = useCallback(
    (index: number) => {
      const r = rows[index];
      if (!r || r.kind === 'day') return;
      focusNext.current = r.key;
      setActiveKey(r.key);
      list.current?.scrollToIndex(index, 'nearest');
    },
    [rows],
  );

  const onListKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('[data-row-key]');
    // Keys inside a row's buttons and menus are theirs.
    if (rowEl && target !== rowEl) return;
    const at = rowEl ? rows.findIndex((r) => r.key === rowEl.dataset.rowKey) : -1;
    const step = (from: number, dir: 1 | -1) => {
      for (let i = from + dir; i >= 0 && i < rows.length; i += dir) if (isMessageRow(rows[i])) return i;
      return -1;
    };
    if (e.key === 'ArrowUp') {
      e.preventDefault();
      const i = at < 0 ? step(rows.length, -1) : step(at, -1);
      if (i >= 0) moveTo(i);
      else if (thread.hasOlder) void loadOlder(conversationId);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      const i = at < 0 ? -1 : step(at, 1);
      if (i >= 0) moveTo(i);
    } else if (e.key === 'Home' && rowEl) {
      e.preventDefault();
      const i = step(-1, 1);
      if (i >= 0) moveTo(i);
    } else if (e.key === 'End' && rowEl) {
      e.preventDefault();
      const i = step(rows.length, -1);
      if (i >= 0) moveTo(i);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      composer.current?.focus();
    }
  };

  // The row actions stay the same object while rows come and go (the rows are memoized).
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const actions: RowActions = useMemo(
    () => ({
      reply: (m) => {
        setEditing(null);
        setReplyTo(m);
      },
      edit: (m) => {
        setReplyTo(null);
        setEditing(m);
      },
      unsend: (m) => setConfirmUnsend(m),
      report: (m) => setReporting(m),
      react: (m, emoji) => {
        void setReaction({ conversationId, seq: m.seq, emoji }).catch((err: unknown) =>
          toast({ message: isApiError(err) ? err.message : 'Could not react.', tone: 'error' }),
        );
      },
      retry: (p) => void retry({ conversationId, clientId: p.clientId }),
      discard: (p) => discard({ conversationId, clientId: p.clientId }),
      jumpTo: (seq) => {
        const all = rowsRef.current;
        const i = all.findIndex((r) => r.kind === 'message' && r.message.seq === seq);
        if (i >= 0) {
          focusNext.current = all[i]!.key;
          setActiveKey(all[i]!.key);
          list.current?.scrollToIndex(i, 'center');
        }
      },
      focused: (key) => setActiveKey(key),
    }),
    [conversationId, setReaction, toast, retry, discard],
  );

  const onReachStart = useCallback(() => {
    if (thread.loaded && thread.hasOlder) void loadOlder(conversationId);
  }, [thread.loaded, thread.hasOlder, loadOlder, conversationId]);

  // The row Tab enters the list at: the one last focused, else the newest message.
  let lastKey: string | null = null;
  for (let i = rows.length - 1; i >= 0 && lastKey === null; i--) if (isMessageRow(rows[i])) lastKey = rows[i]!.key;
  const tabKey = activeKey && rows.some((r) => r.key === activeKey) ? activeKey : lastKey;

  if (!conv && (convStatus === 'notfound' || thread.status === 'notfound')) {
    return (
      <section className="thread thread--empty" aria-labelledby={titleId}>
        <h2 id={titleId} className="thread__missing">
          Conversation not found
        </h2>
        <button type="button" className="button button--secondary" onClick={() => navigate({ page: 'messages' })}>
          Back to messages
        </button>
      </section>
    );
  }
  if (!conv) {
    return (
      <section className="thread thread--empty" aria-label="Conversation">
        {convStatus === 'error' ? (
          <p className="alert alert--error" role="alert">
            Couldn't load this conversation.
          </p>
        ) : (
          <Loading className="thread__loading" label="Loading conversation…" />
        )}
      </section>
    );
  }

  const subtitle = conv.kind === 'group' ? `${conv.members.length} members${conv.muted ? ' · Muted' : ''}` : conv.muted ? 'Muted' : '';
  let lastMineEditable: Message | null = null;
  for (let i = thread.messages.length - 1; i >= 0 && !lastMineEditable; i--) {
    const m = thread.messages[i]!;
    if (m.sender.id === myId && !m.unsent) lastMineEditable = m;
  }

  return (
    <section className="thread" aria-labelledby={titleId}>
      <div className="thread__head">
        <button type="button" className="icon-button thread__back" aria-label="Back to conversations" onClick={() => navigate({ page: 'messages' })}>
          <ArrowLeftIcon />
        </button>
        <Avatar name={conv.title} url={conversationAvatar(conv, myId)} size={36} />
        <div className="thread__title-wrap">
          <h2 id={titleId} className="thread__title">
            {conv.title}
          </h2>
          {subtitle && <p className="thread__subtitle">{subtitle}</p>}
        </div>
        <button type="button" className="icon-button thread__details" aria-label="Conversation details" aria-haspopup="dialog" onClick={() => setDetails(true)}>
          <SettingsIcon />
        </button>
      </div>

      {thread.status === 'error' && thread.messages.length === 0 ? (
        <p className="alert alert--error thread__error" role="alert">
          {thread.error ?? "Couldn't load messages."}
        </p>
      ) : !thread.loaded && thread.messages.length === 0 ? (
        <Loading className="thread__loading" label="Loading messages…" />
      ) : (
        <VirtualList
          ref={list}
          items={rows}
          itemKey={rowKey}
          estimate={56}
          className="thread__list"
          onReachStart={onReachStart}
          onAtBottomChange={setAtBottom}
          scrollerProps={{
            role: 'log',
            'aria-label': `Messages with ${conv.title}`,
            // Rows come and go as the window scrolls: what is new is said below instead.
            'aria-live': 'off',
            tabIndex: 0,
            onKeyDown: onListKeyDown,
          }}
          header={
            <div className="thread__start">
              {thread.loadingOlder ? (
                <Loading className="thread__older" label="Loading earlier messages…" />
              ) : thread.hasOlder ? (
                <button type="button" className="button button--ghost button--sm" onClick={() => void loadOlder(conversationId)}>
                  Load earlier messages
                </button>
              ) : (
                <p className="thread__start-text">{rows.length === 0 ? 'No messages yet. Say hello!' : 'This is the start of the conversation.'}</p>
              )}
            </div>
          }
          renderItem={(r) => (
            <MessageRow
              row={r}
              group={group}
              active={r.key === tabKey}
              status={r.kind === 'message' && lastMine && r.message.seq === lastMine.seq ? seen : undefined}
              actions={actions}
            />
          )}
        />
      )}
      {!atBottom && (
        <button type="button" className="button button--secondary button--sm thread__jump" onClick={() => list.current?.scrollToBottom()}>
          Jump to latest
        </button>
      )}

      <p className="thread__typing" role="status">
        {typingSentence}
      </p>
      <p className="visually-hidden" role="status">
        {announce}
      </p>

      {conv.readOnly ? (
        <p className="thread__readonly" role="note">
          {readOnlyText(conv.readOnlyReason)}
        </p>
      ) : (
        <MessageComposer
          ref={composer}
          conversationId={conversationId}
          myId={myId}
          title={conv.title}
          replyTo={replyTo}
          editing={editing}
          onCancelReply={() => setReplyTo(null)}
          onCancelEdit={() => setEditing(null)}
          onEditLast={() => {
            if (lastMineEditable) setEditing(lastMineEditable);
          }}
          onSend={(body, images) => {
            const r = replyTo;
            setReplyTo(null);
            list.current?.scrollToBottom();
            void send({ conversationId, body, images, replyTo: r ? replyOf(r) : null });
          }}
          onSaveEdit={async (body) => {
            if (!editing) return;
            await edit({ conversationId, seq: editing.seq, body });
            setEditing(null);
          }}
        />
      )}

      <ConfirmDialog
        open={confirmUnsend !== null}
        title="Unsend message?"
        body="It will be removed for everyone in this conversation. They may have seen it already."
        confirmLabel="Unsend"
        busy={unsending}
        onClose={() => setConfirmUnsend(null)}
        onConfirm={() => {
          const m = confirmUnsend;
          if (!m) return;
          setUnsending(true);
          void unsend({ conversationId, seq: m.seq })
            .then(() => setConfirmUnsend(null))
            .catch((err: unknown) => {
              setConfirmUnsend(null);
              toast({ message: isApiError(err) ? err.message : 'Could not unsend the message.', tone: 'error' });
            })
            .finally(() => setUnsending(false));
        }}
      />
      <ReportDialog
        open={reporting !== null}
        itemType="message"
        itemId={reporting ? String(reporting.seq) : ''}
        onClose={() => setReporting(null)}
        send={(reason, text) => reportMessage(conversationId, reporting?.seq ?? 0, reason, text)}
      />
      {details && <ConversationDetails conversation={conv} myId={myId} onClose={() => setDetails(false)} />}
    </section>
  );
}
