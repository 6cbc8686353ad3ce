// Messages in the jotai store (issue 29): the conversations by id (the list
// is derived, newest first), each thread's messages in seq order, the sends
// not yet acknowledged, the members' read pointers, who is typing, and the
// unread counts. REST answers and the socket's frames (app/realtime) both go
// through the same merges, so a message is never shown twice and always in
// seq order, whatever came first. Primitive atoms stay private; screens use
// the derived and action atoms. What changes things (send, edit, react, the
// group's members) is ./messageActions, which loads with the screens: the
// shell carries only this store.

import { atom, type Atom, type Getter, type Setter } from 'jotai';
import { isApiError } from '../../api/http';
import { currentUserAtom } from '../auth/authAtoms';
import { fetchConversation, fetchConversations, fetchMessages, markRead } from './messagesApi';
import {
  highestSeq,
  mergeMessages,
  normalizeConversation,
  normalizeMessage,
  TYPING_SHOW_MS,
  type Conversation,
  type Message,
  type PendingMessage,
} from './model';
import { setUnreadMessagesAtom, unreadMessagesAtom } from './unread';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error' | 'notfound';

export interface Thread {
  /** Ascending seq, one per seq. */
  messages: Message[];
  /** The first page has come: pushes merge in from now on. */
  loaded: boolean;
  status: LoadStatus;
  /** Older messages exist before the first held. */
  hasOlder: boolean;
  loadingOlder: boolean;
  /** Why loading failed (the server's words), for the thread to say. */
  error?: string;
}

const EMPTY_THREAD: Thread = { messages: [], loaded: false, status: 'idle', hasOlder: false, loadingOlder: false };
const NO_PENDING: PendingMessage[] = [];
const NO_READS: Record<string, number> = {};
const NO_TYPING: TypingEntry[] = [];

interface TypingEntry {
  userId: string;
  name: string;
  /** Renewals replace the entry; its expiry only removes the same one. */
  stamp: number;
}

const conversationsBaseAtom = atom<Record<string, Conversation>>({});
const listStatusBaseAtom = atom<LoadStatus>('idle');
const listCursorBaseAtom = atom<string | null>(null);
const listLoadingMoreBaseAtom = atom(false);
const conversationStatusBaseAtom = atom<Record<string, LoadStatus>>({});
const threadsBaseAtom = atom<Record<string, Thread>>({});
const pendingBaseAtom = atom<Record<string, PendingMessage[]>>({});
const readsBaseAtom = atom<Record<string, Record<string, number>>>({});
const typingBaseAtom = atom<Record<string, TypingEntry[]>>({});
const openBaseAtom = atom<string | null>(null);
/** Conversations whose gap fill or read call runs, so one runs at a time. */
const fillingBaseAtom = atom<Record<string, boolean>>({});
const readingBaseAtom = atom<Record<string, number>>({});

let typingStamp = 0;

const myId = (get: Getter) => get(currentUserAtom)?.id ?? '';

// --- reading -------------------------------------------------------------------

export { unreadMessagesAtom };

/** Every conversation held, newest activity first. */
export const conversationListAtom = atom((get) =>
  Object.values(get(conversationsBaseAtom)).sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)),
);
export const conversationListStatusAtom = atom((get) => get(listStatusBaseAtom));
export const conversationListHasMoreAtom = atom((get) => get(listCursorBaseAtom) !== null);
export const conversationListLoadingMoreAtom = atom((get) => get(listLoadingMoreBaseAtom));
/** The conversation open on screen, if any. */
export const openConversationIdAtom = atom((get) => get(openBaseAtom));

function cached<T>(cache: Map<string, Atom<T>>, id: string, make: () => Atom<T>): Atom<T> {
  let a = cache.get(id);
  if (!a) {
    a = make();
    cache.set(id, a);
  }
  return a;
}

const conversationCache = new Map<string, Atom<Conversation | undefined>>();
export const conversationAtom = (id: string) => cached(conversationCache, id, () => atom((get) => get(conversationsBaseAtom)[id]));

const conversationStatusCache = new Map<string, Atom<LoadStatus>>();
export const conversationStatusAtom = (id: string) =>
  cached(conversationStatusCache, id, () => atom((get) => get(conversationStatusBaseAtom)[id] ?? 'idle'));

const threadCache = new Map<string, Atom<Thread>>();
export const threadAtom = (id: string) => cached(threadCache, id, () => atom((get) => get(threadsBaseAtom)[id] ?? EMPTY_THREAD));

const pendingCache = new Map<string, Atom<PendingMessage[]>>();
export const pendingAtom = (id: string) => cached(pendingCache, id, () => atom((get) => get(pendingBaseAtom)[id] ?? NO_PENDING));

const readsCache = new Map<string, Atom<Record<string, number>>>();
/** The members' read pointers heard live, by user id. */
export const readsAtom = (id: string) => cached(readsCache, id, () => atom((get) => get(readsBaseAtom)[id] ?? NO_READS));

const typingCache = new Map<string, Atom<TypingEntry[]>>();
/** Who else is typing in a conversation now. */
export const typingAtom = (id: string) => cached(typingCache, id, () => atom((get) => get(typingBaseAtom)[id] ?? NO_TYPING));

// --- writing helpers --------------------------------------------------------------

function putConversation(get: Getter, set: Setter, c: Conversation): void {
  set(conversationsBaseAtom, { ...get(conversationsBaseAtom), [c.id]: c });
}

function putThread(get: Getter, set: Setter, id: string, patch: Partial<Thread>): void {
  const all = get(threadsBaseAtom);
  set(threadsBaseAtom, { ...all, [id]: { ...(all[id] ?? EMPTY_THREAD), ...patch } });
}

function setConversationStatus(get: Getter, set: Setter, id: string, s: LoadStatus): void {
  set(conversationStatusBaseAtom, { ...get(conversationStatusBaseAtom), [id]: s });
}

/** What a conversation adds to the total: its unread, unless muted (the server's rule). */
const counted = (c: Conversation | undefined) => (c && !c.muted ? c.unreadCount : 0);

function adjustTotal(get: Getter, set: Setter, delta: number): void {
  if (delta !== 0) set(setUnreadMessagesAtom, get(unreadMessagesAtom) + delta);
}

/** Lets go of a send's image previews (object URLs) once it leaves the screen. */
function releasePending(p: PendingMessage): void {
  if (typeof URL.revokeObjectURL !== 'function') return;
  for (const im of p.images) if (im.url) URL.revokeObjectURL(im.url);
}

/** Drops the sends the server has acknowledged (their clientIds are in `messages`, sent by me). */
function settlePending(get: Getter, set: Setter, id: string, messages: readonly Message[]): void {
  const pending = get(pendingBaseAtom)[id];
  if (!pending || pending.length === 0) return;
  const me = myId(get);
  const done = new Set(messages.filter((m) => m.sender.id === me && m.clientId).map((m) => m.clientId));
  if (done.size === 0) return;
  const rest = pending.filter((p) => !done.has(p.clientId));
  if (rest.length === pending.length) return;
  for (const p of pending) if (done.has(p.clientId)) releasePending(p);
  set(pendingBaseAtom, { ...get(pendingBaseAtom), [id]: rest });
}

/**
 * Upserts a conversation as the server sent it, keeping the total in step
 * with its unread count (the total is the sum the server keeps).
 */
export const upsertConversationAtom = atom(null, (get, set, c: Conversation) => {
  const had = get(conversationsBaseAtom)[c.id];
  adjustTotal(get, set, counted(c) - counted(had));
  // A page read before a newer push must not put an older last message back.
  const next = had && had.lastSeq > c.lastSeq ? { ...c, lastSeq: had.lastSeq, lastMessage: had.lastMessage, updatedAt: had.updatedAt } : c;
  putConversation(get, set, next);
  setConversationStatus(get, set, c.id, 'ready');
});

/** Merges messages into a thread and the conversation's last message; settles my sends among them. */
function mergeIntoThread(get: Getter, set: Setter, id: string, messages: readonly Message[], fromPush: boolean): void {
  if (messages.length === 0) return;
  const thread = get(threadsBaseAtom)[id] ?? EMPTY_THREAD;
  putThread(get, set, id, { messages: mergeMessages(thread.messages, messages, fromPush) });
  settlePending(get, set, id, messages);
  const c = get(conversationsBaseAtom)[id];
  const newest = messages[messages.length - 1]!;
  if (c && newest.seq >= c.lastSeq) {
    const updatedAt = newest.seq > c.lastSeq && newest.createdAt > c.updatedAt ? newest.createdAt : c.updatedAt;
    putConversation(get, set, { ...c, lastSeq: newest.seq, lastMessage: newest, updatedAt });
  }
}

// --- the list ------------------------------------------------------------------------

/** Loads (or re-reads, after a reconnect) the list's first page; the total comes with it. */
export const loadConversationsAtom = atom(null, async (get, set) => {
  if (get(listStatusBaseAtom) !== 'ready') set(listStatusBaseAtom, 'loading');
  try {
    const page = await fetchConversations(null);
    // Held ones the page should have had and has not are gone (left or
    // removed on another device while this one was away); the open one
    // stays, read-only, until it is closed.
    const listed = new Set(page.conversations.map((c) => c.id));
    const oldest = page.conversations.at(-1)?.updatedAt ?? '';
    const open = get(openBaseAtom);
    const held = get(conversationsBaseAtom);
    const gone = Object.values(held).filter((c) => !listed.has(c.id) && c.id !== open && (page.nextCursor === null || c.updatedAt >= oldest));
    if (gone.length > 0) {
      const rest = { ...held };
      for (const c of gone) delete rest[c.id];
      set(conversationsBaseAtom, rest);
    }
    for (const c of page.conversations) set(upsertConversationAtom, c);
    set(setUnreadMessagesAtom, page.unreadTotal);
    if (get(listStatusBaseAtom) !== 'ready' || get(listCursorBaseAtom) === null) set(listCursorBaseAtom, page.nextCursor);
    set(listStatusBaseAtom, 'ready');
  } catch (err) {
    console.warn('Conversations failed to load', err);
    if (get(listStatusBaseAtom) !== 'ready') set(listStatusBaseAtom, 'error');
  }
});

export const loadMoreConversationsAtom = atom(null, async (get, set) => {
  const cursor = get(listCursorBaseAtom);
  if (cursor === null || get(listLoadingMoreBaseAtom)) return;
  set(listLoadingMoreBaseAtom, true);
  try {
    const page = await fetchConversations(cursor);
    const total = get(unreadMessagesAtom);
    for (const c of page.conversations) set(upsertConversationAtom, c);
    set(setUnreadMessagesAtom, page.unreadTotal || total);
    set(listCursorBaseAtom, page.nextCursor);
  } catch (err) {
    console.warn('More conversations failed to load', err);
  } finally {
    set(listLoadingMoreBaseAtom, false);
  }
});

/** Loads one conversation (a deep link, a push for one not held). Never rejects. */
export const loadConversationAtom = atom(null, async (get, set, id: string) => {
  if (!get(conversationsBaseAtom)[id]) setConversationStatus(get, set, id, 'loading');
  try {
    set(upsertConversationAtom, await fetchConversation(id));
  } catch (err) {
    if (get(conversationsBaseAtom)[id]) return;
    setConversationStatus(get, set, id, isApiError(err) && err.status === 404 ? 'notfound' : 'error');
  }
});

// --- a thread ----------------------------------------------------------------------

/** Loads the newest page of a thread not loaded yet. */
async function loadFirstPage(get: Getter, set: Setter, id: string): Promise<void> {
  const t = get(threadsBaseAtom)[id];
  if (t?.status === 'loading') return;
  putThread(get, set, id, { status: 'loading', error: undefined });
  try {
    const page = await fetchMessages(id);
    // Pushes that came meanwhile and my sends are merged in, never doubled.
    mergeIntoThread(get, set, id, page.messages, false);
    putThread(get, set, id, { loaded: true, status: 'ready', hasOlder: page.hasMore });
  } catch (err) {
    const notFound = isApiError(err) && err.status === 404;
    putThread(get, set, id, { status: notFound ? 'notfound' : 'error', error: isApiError(err) ? err.message : undefined });
  }
}

/** The last seq before the first hole in a thread (gaps are filled after it). */
function contiguousEnd(messages: readonly Message[]): number {
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.seq !== messages[i - 1]!.seq + 1) return messages[i - 1]!.seq;
  }
  return highestSeq(messages);
}

/**
 * Fills a loaded thread after its last seq without a hole (a reconnect, a
 * push that skipped ahead): pages of `afterSeq` until the server has no more.
 */
export const fillGapAtom = atom(null, async (get, set, id: string) => {
  const t = get(threadsBaseAtom)[id];
  if (!t?.loaded || get(fillingBaseAtom)[id]) return;
  set(fillingBaseAtom, { ...get(fillingBaseAtom), [id]: true });
  try {
    let after = contiguousEnd(t.messages);
    for (let round = 0; round < 100; round++) {
      const page = await fetchMessages(id, { afterSeq: after, limit: 100 });
      mergeIntoThread(get, set, id, page.messages, false);
      const top = highestSeq(page.messages);
      if (!page.hasMore || top <= after) break;
      after = top;
    }
  } catch (err) {
    console.warn('Filling the thread failed', err);
  } finally {
    set(fillingBaseAtom, { ...get(fillingBaseAtom), [id]: false });
  }
});

/** The thread on screen: loads its first page, or fills what it missed; and the conversation. */
export const openThreadAtom = atom(null, async (get, set, id: string) => {
  set(openBaseAtom, id);
  if (!get(conversationsBaseAtom)[id]) void set(loadConversationAtom, id);
  const t = get(threadsBaseAtom)[id];
  if (t?.loaded) await set(fillGapAtom, id);
  else await loadFirstPage(get, set, id);
  set(markReadAtom, id);
});

export const closeThreadAtom = atom(null, (get, set, id: string) => {
  if (get(openBaseAtom) === id) set(openBaseAtom, null);
});

/** The page before the oldest message held. */
export const loadOlderAtom = atom(null, async (get, set, id: string) => {
  const t = get(threadsBaseAtom)[id];
  if (!t?.loaded || !t.hasOlder || t.loadingOlder || t.messages.length === 0) return;
  putThread(get, set, id, { loadingOlder: true });
  try {
    // Older pages are read 100 at a time (the contract's most): a long scroll back asks less often.
    const page = await fetchMessages(id, { beforeSeq: t.messages[0]!.seq, limit: 100 });
    const now = get(threadsBaseAtom)[id] ?? EMPTY_THREAD;
    putThread(get, set, id, { messages: mergeMessages(now.messages, page.messages), hasOlder: page.hasMore, loadingOlder: false });
  } catch (err) {
    console.warn('Older messages failed to load', err);
    putThread(get, set, id, { loadingOlder: false });
  }
});

function documentVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

/**
 * Moves my read pointer to the newest message of the open thread, if it is
 * on screen: the counts drop at once and the server's answer sets them.
 */
export const markReadAtom = atom(null, async (get, set, id: string) => {
  if (get(openBaseAtom) !== id || !documentVisible()) return;
  const c = get(conversationsBaseAtom)[id];
  const t = get(threadsBaseAtom)[id];
  const seq = Math.max(c?.lastSeq ?? 0, highestSeq(t?.messages ?? []));
  if (!c || seq <= c.readSeq || (get(readingBaseAtom)[id] ?? 0) >= seq) return;
  set(readingBaseAtom, { ...get(readingBaseAtom), [id]: seq });
  adjustTotal(get, set, -Math.min(counted(c), get(unreadMessagesAtom)));
  putConversation(get, set, { ...c, readSeq: seq, unreadCount: 0 });
  try {
    const r = await markRead(id, seq);
    const now = get(conversationsBaseAtom)[id];
    if (now) putConversation(get, set, { ...now, readSeq: Math.max(now.readSeq, r.readSeq), unreadCount: r.unreadCount });
    set(setUnreadMessagesAtom, r.unreadTotal);
  } catch (err) {
    console.warn('Marking the conversation read failed', err);
  } finally {
    const reading = { ...get(readingBaseAtom) };
    delete reading[id];
    set(readingBaseAtom, reading);
  }
});

// --- frames from the socket ---------------------------------------------------------

/**
 * `message:new` / `message:updated`: into the thread (if loaded; a thread not
 * loaded gets it with its first page), the list's last message, the unread
 * counts, and the sender's typing ends.
 */
export const applyMessageFrameAtom = atom(null, (get, set, frame: { conversationId: string; message: unknown; isNew: boolean }) => {
  const id = frame.conversationId;
  const m = normalizeMessage(frame.message, id);
  if (!id || !m) return;
  const me = myId(get);
  const c = get(conversationsBaseAtom)[id];
  const t = get(threadsBaseAtom)[id];
  const fresh = frame.isNew && (!c || m.seq > c.lastSeq);

  if (t?.loaded) {
    const before = highestSeq(t.messages);
    mergeIntoThread(get, set, id, [m], true);
    // A push that skips ahead means one went missing: read the gap.
    if (m.seq > before + 1 && before > 0) void set(fillGapAtom, id);
  } else {
    settlePending(get, set, id, [m]);
    if (c && m.seq >= c.lastSeq) {
      putConversation(get, set, { ...c, lastSeq: m.seq, lastMessage: c.lastSeq === m.seq ? newerOf(c.lastMessage, m) : m, updatedAt: fresh && m.createdAt > c.updatedAt ? m.createdAt : c.updatedAt });
    }
  }
  if (!frame.isNew) {
    const now = get(conversationsBaseAtom)[id];
    if (now?.lastMessage?.seq === m.seq) putConversation(get, set, { ...now, lastMessage: newerOf(now.lastMessage, m) });
  }

  if (frame.isNew) clearTyping(get, set, id, m.sender.id);
  if (!fresh || m.sender.id === me) return;
  // Their first message accepts the conversation (once both wrote it stays
  // open): I may answer now, as the server's copy will say.
  if (c?.readOnlyReason === 'not_accepted') void set(loadConversationAtom, id);
  if (!c) {
    // A conversation not held (new, or beyond the list's first page): read it;
    // its unread count (this one included) joins the total as it comes.
    void set(loadConversationAtom, id);
    return;
  }
  if (m.seq <= c.readSeq) return;
  if (get(openBaseAtom) === id && documentVisible()) {
    void set(markReadAtom, id);
    return;
  }
  const now = get(conversationsBaseAtom)[id]!;
  putConversation(get, set, { ...now, unreadCount: now.unreadCount + 1 });
  if (!now.muted) adjustTotal(get, set, 1);
});

function newerOf(had: Message | null, m: Message): Message {
  if (!had || had.seq !== m.seq) return m;
  return mergeMessages([had], [m], true)[0] ?? m;
}

/** `message:read`: a member's read pointer (mine from another device moves my counts). */
export const applyReadFrameAtom = atom(null, (get, set, f: { conversationId: string; userId: string; seq: number; unreadTotal?: number }) => {
  if (!f.conversationId || !f.userId || !Number.isFinite(f.seq)) return;
  if (f.userId === myId(get)) {
    const c = get(conversationsBaseAtom)[f.conversationId];
    if (c && f.seq > c.readSeq) {
      const unread = f.seq >= c.lastSeq ? 0 : Math.min(c.unreadCount, c.lastSeq - f.seq);
      if (typeof f.unreadTotal !== 'number' && !c.muted) adjustTotal(get, set, unread - c.unreadCount);
      putConversation(get, set, { ...c, readSeq: f.seq, unreadCount: unread });
    }
    if (typeof f.unreadTotal === 'number') set(setUnreadMessagesAtom, f.unreadTotal);
    return;
  }
  const all = get(readsBaseAtom);
  const reads = all[f.conversationId] ?? NO_READS;
  if ((reads[f.userId] ?? 0) >= f.seq) return;
  set(readsBaseAtom, { ...all, [f.conversationId]: { ...reads, [f.userId]: f.seq } });
});

function clearTyping(get: Getter, set: Setter, id: string, userId: string): void {
  const list = get(typingBaseAtom)[id];
  if (!list || !list.some((e) => e.userId === userId)) return;
  set(typingBaseAtom, { ...get(typingBaseAtom), [id]: list.filter((e) => e.userId !== userId) });
}

/** `typing`: shown for TYPING_SHOW_MS unless renewed; never my own. */
export const applyTypingFrameAtom = atom(null, (get, set, f: { conversationId: string; userId: string; name: string }) => {
  if (!f.conversationId || !f.userId || f.userId === myId(get)) return;
  const stamp = ++typingStamp;
  const list = (get(typingBaseAtom)[f.conversationId] ?? NO_TYPING).filter((e) => e.userId !== f.userId);
  set(typingBaseAtom, { ...get(typingBaseAtom), [f.conversationId]: [...list, { userId: f.userId, name: f.name || 'Someone', stamp }] });
  setTimeout(() => {
    const now = get(typingBaseAtom)[f.conversationId];
    if (now?.some((e) => e.stamp === stamp)) {
      set(typingBaseAtom, { ...get(typingBaseAtom), [f.conversationId]: now.filter((e) => e.stamp !== stamp) });
    }
  }, TYPING_SHOW_MS);
});

/** `conversation:updated`: created, renamed, members changed, became read-only. */
export const applyConversationFrameAtom = atom(null, (_get, set, data: unknown) => {
  const c = normalizeConversation(data);
  if (c) set(upsertConversationAtom, c);
});

/** `conversation:removed`: I was removed, or left on another device. */
export const applyConversationRemovedAtom = atom(null, (get, set, id: string) => {
  const c = get(conversationsBaseAtom)[id];
  if (!c) return;
  adjustTotal(get, set, -counted(c));
  if (get(openBaseAtom) === id) {
    // On screen: it stays, read-only, as the server now shows it to me.
    void set(loadConversationAtom, id);
    return;
  }
  const rest = { ...get(conversationsBaseAtom) };
  delete rest[id];
  set(conversationsBaseAtom, rest);
});

/** After a reconnect: what changed in the list, and the open thread's gap. */
export const messagesReconnectedAtom = atom(null, (get, set) => {
  if (get(listStatusBaseAtom) === 'ready') void set(loadConversationsAtom);
  const open = get(openBaseAtom);
  if (open) {
    void set(loadConversationAtom, open);
    void set(fillGapAtom, open).then(() => set(markReadAtom, open));
  }
});

// --- for ./messageActions ----------------------------------------------------------------

/** Messages the server answered me with (a send, an edit…): merged like any other. */
export const mergeOwnMessagesAtom = atom(null, (get, set, a: { conversationId: string; messages: Message[] }) => {
  mergeIntoThread(get, set, a.conversationId, a.messages, false);
  settlePending(get, set, a.conversationId, a.messages);
});

/** The server's copy of one message after an edit, unsend or reaction. */
export const applyMessageCopyAtom = atom(null, (get, set, m: Message) => {
  const t = get(threadsBaseAtom)[m.conversationId] ?? EMPTY_THREAD;
  putThread(get, set, m.conversationId, { messages: mergeMessages(t.messages, [m]) });
  const c = get(conversationsBaseAtom)[m.conversationId];
  if (c?.lastMessage?.seq === m.seq) putConversation(get, set, { ...c, lastMessage: m });
});

function putPending(get: Getter, set: Setter, id: string, fn: (list: PendingMessage[]) => PendingMessage[]): void {
  const all = get(pendingBaseAtom);
  set(pendingBaseAtom, { ...all, [id]: fn(all[id] ?? NO_PENDING) });
}

/** A send shown at once, before the server has it. */
export const addPendingAtom = atom(null, (get, set, p: PendingMessage) => putPending(get, set, p.conversationId, (list) => [...list, p]));

/** A send's state changes (pending again for a retry, failed with its reason). */
export const updatePendingAtom = atom(null, (get, set, p: PendingMessage) =>
  putPending(get, set, p.conversationId, (list) => list.map((x) => (x.clientId === p.clientId ? p : x))),
);

export const discardPendingAtom = atom(null, (get, set, a: { conversationId: string; clientId: string }) => {
  putPending(get, set, a.conversationId, (list) =>
    list.filter((x) => {
      if (x.clientId !== a.clientId) return true;
      releasePending(x);
      return false;
    }),
  );
});

/** A conversation leaves my list (I left it); its unread leave the total. */
export const dropConversationAtom = atom(null, (get, set, id: string) => {
  const c = get(conversationsBaseAtom)[id];
  if (!c) return;
  adjustTotal(get, set, -counted(c));
  const rest = { ...get(conversationsBaseAtom) };
  delete rest[id];
  set(conversationsBaseAtom, rest);
});

/** A member is gone from a conversation (an admin removed them); the server's copy follows. */
export const dropMemberAtom = atom(null, (get, set, a: { id: string; userId: string }) => {
  const c = get(conversationsBaseAtom)[a.id];
  if (c) putConversation(get, set, { ...c, members: c.members.filter((m) => m.id !== a.userId) });
});
