// Conversations and messages (issue 29) as the client holds them: tolerant
// readers of the server's shapes, and the pure rules of a thread — order by
// seq, never a message twice, which copy of a message is the newer, the rows
// a thread shows (day separators, runs of one sender), "Seen" and typing.

import { idOf, isRecord, normalizeImage, num, str } from '../../api/models';

/** A person as conversations carry them (the API's user brief). */
export interface UserBrief {
  id: string;
  name: string;
  /** The avatar's smallest copy when the server has one, else its url; '' for none. */
  avatarUrl: string;
}

export type MemberRole = 'admin' | 'member';

export interface Member extends UserBrief {
  role: MemberRole;
  /** The member's read pointer, when the server says it (not in every answer). */
  readSeq?: number;
}

export type ReadOnlyReason = 'blocked' | 'left' | 'not_accepted';

export interface Reaction {
  emoji: string;
  count: number;
  mine: boolean;
}

export interface Message {
  id: string;
  conversationId: string;
  seq: number;
  sender: UserBrief;
  body: string;
  replyTo: { seq: number; senderName: string; snippet: string } | null;
  reactions: Reaction[];
  editedAt: string | null;
  unsent: boolean;
  clientId: string;
  createdAt: string;
}

export interface Conversation {
  id: string;
  kind: 'direct' | 'group';
  title: string;
  members: Member[];
  lastSeq: number;
  lastMessage: Message | null;
  readSeq: number;
  unreadCount: number;
  muted: boolean;
  readOnly: boolean;
  readOnlyReason?: ReadOnlyReason;
  role: MemberRole;
  updatedAt: string;
  createdAt: string;
}

export type AllowFrom = 'friends' | 'course' | 'department' | 'everyone';

export const ALLOW_FROM: ReadonlyArray<{ id: AllowFrom; label: string; hint: string }> = [
  { id: 'friends', label: 'Friends only', hint: 'Only people you are friends with.' },
  { id: 'course', label: 'Your course', hint: 'Friends, and people in your course and batch.' },
  { id: 'department', label: 'Your department', hint: 'Friends, and people in your department.' },
  { id: 'everyone', label: 'Everyone on campus', hint: 'Anyone with an account here.' },
];

/** Word for word from the contract: shown at the top of the list and on its empty state. */
export const MSG_NOT_E2E =
  "Messages are private between their members but are stored on the university's server; they are not end-to-end encrypted.";
/** The server's words for a refused send; also the read-only banner when it gives no reason. */
export const MSG_CANNOT_SEND = "You can't send messages in this conversation.";
export const MSG_UNSENT = 'Message unsent';
export const MAX_MESSAGE_LENGTH = 5000;
export const MAX_TITLE_LENGTH = 80;
/** Members of a group counting its creator (the contract's 2–256). */
export const MAX_GROUP_MEMBERS = 256;
/** How long another member's typing shows unless renewed. */
export const TYPING_SHOW_MS = 5000;
/** At most one typing frame per conversation this often. */
export const TYPING_SEND_MS = 2000;
export const MESSAGES_PAGE = 30;
/** The quick reactions (one per person per message; any emoji is allowed by the server). */
export const QUICK_REACTIONS = ['❤️', '😂', '😮', '😢', '😡', '👍'] as const;

/** The read-only banner for a reason. */
export function readOnlyText(reason: ReadOnlyReason | undefined): string {
  switch (reason) {
    case 'blocked':
      return "You can't send messages here: one of you has blocked the other.";
    case 'left':
      return "You're no longer a member of this conversation.";
    case 'not_accepted':
      return "This person doesn't accept messages from you.";
    default:
      return MSG_CANNOT_SEND;
  }
}

// --- reading the server's shapes ---------------------------------------------

export function normalizeBrief(v: unknown): UserBrief {
  const r = isRecord(v) ? v : {};
  const a = r.avatar;
  let avatarUrl = '';
  if (isRecord(a)) avatarUrl = str(a.thumbnailUrl) || str(a.thumbUrl) || str(a.url);
  else if (typeof a === 'string') avatarUrl = normalizeImage(a).url;
  return { id: idOf(r), name: str(r.name).trim() || 'User', avatarUrl };
}

function normalizeReactions(v: unknown): Reaction[] {
  if (!Array.isArray(v)) return [];
  const out: Reaction[] = [];
  for (const x of v) {
    if (!isRecord(x) || typeof x.emoji !== 'string' || x.emoji === '') continue;
    const count = Math.max(0, Math.floor(num(x.count)));
    if (count > 0) out.push({ emoji: x.emoji, count, mine: x.mine === true });
  }
  return out;
}

/** A message from the server, or null when it lacks what the thread needs (an id and a seq). */
export function normalizeMessage(v: unknown, conversationId = ''): Message | null {
  if (!isRecord(v)) return null;
  const seq = num(v.seq);
  const id = idOf(v);
  if (!id || !Number.isInteger(seq) || seq < 1) return null;
  const reply = isRecord(v.replyTo) ? v.replyTo : null;
  const unsent = v.unsent === true;
  return {
    id,
    conversationId: str(v.conversationId) || conversationId,
    seq,
    sender: normalizeBrief(v.sender),
    body: unsent ? '' : str(v.body),
    replyTo: reply ? { seq: num(reply.seq), senderName: str(reply.senderName), snippet: str(reply.snippet) } : null,
    reactions: normalizeReactions(v.reactions),
    editedAt: typeof v.editedAt === 'string' && v.editedAt ? v.editedAt : null,
    unsent,
    clientId: str(v.clientId),
    createdAt: str(v.createdAt),
  };
}

/** Messages from a list, in ascending seq, one per seq. */
export function normalizeMessages(v: unknown, conversationId = ''): Message[] {
  if (!Array.isArray(v)) return [];
  return mergeMessages([], v.map((m) => normalizeMessage(m, conversationId)).filter((m): m is Message => m !== null));
}

function normalizeMember(v: unknown): Member {
  const r = isRecord(v) ? v : {};
  const m: Member = { ...normalizeBrief(r), role: r.role === 'admin' ? 'admin' : 'member' };
  if (typeof r.readSeq === 'number' && Number.isFinite(r.readSeq)) m.readSeq = r.readSeq;
  return m;
}

export function normalizeConversation(v: unknown): Conversation | null {
  if (!isRecord(v)) return null;
  const id = idOf(v);
  if (!id) return null;
  const reason = v.readOnlyReason;
  const c: Conversation = {
    id,
    kind: v.kind === 'group' ? 'group' : 'direct',
    title: str(v.title).trim() || 'Conversation',
    members: Array.isArray(v.members) ? v.members.map(normalizeMember).filter((m) => m.id !== '') : [],
    lastSeq: Math.max(0, num(v.lastSeq)),
    lastMessage: normalizeMessage(v.lastMessage, id),
    readSeq: Math.max(0, num(v.readSeq)),
    unreadCount: Math.max(0, Math.floor(num(v.unreadCount))),
    muted: v.muted === true,
    readOnly: v.readOnly === true,
    role: v.role === 'admin' ? 'admin' : 'member',
    updatedAt: str(v.updatedAt),
    createdAt: str(v.createdAt),
  };
  if (reason === 'blocked' || reason === 'left' || reason === 'not_accepted') c.readOnlyReason = reason;
  return c;
}

// --- the thread's order --------------------------------------------------------

/**
 * Which of two copies of one message (same seq) to keep. Messages change in
 * one direction only — edited, then maybe unsent — so an unsent copy beats a
 * sent one and a later edit beats an earlier one; otherwise the incoming copy
 * (its reactions are the newer). Reactions' `mine` is kept from the copy we
 * had when the incoming one says nothing of it (pushes always say false).
 */
export function newerCopy(had: Message, incoming: Message, fromPush = false): Message {
  if (had.unsent && !incoming.unsent) return had;
  if (!had.unsent && !incoming.unsent && had.editedAt && (!incoming.editedAt || incoming.editedAt < had.editedAt)) return had;
  if (!fromPush) return incoming;
  const mine = new Set(had.reactions.filter((r) => r.mine).map((r) => r.emoji));
  if (mine.size === 0) return incoming;
  return { ...incoming, reactions: incoming.reactions.map((r) => (mine.has(r.emoji) ? { ...r, mine: true } : r)) };
}

/**
 * `have` (ascending seq, one per seq) with `incoming` merged in: in seq order
 * whatever order they came in, a seq already held replaced by the newer copy
 * (newerCopy), never two messages with one seq. Appending in order — the
 * usual case — copies the array once.
 */
export function mergeMessages(have: readonly Message[], incoming: readonly Message[], fromPush = false): Message[] {
  if (incoming.length === 0) return have as Message[];
  const last = have.length > 0 ? have[have.length - 1]!.seq : 0;
  let inOrder = true;
  for (let i = 0; i < incoming.length; i++) {
    const prev = i === 0 ? last : incoming[i - 1]!.seq;
    if (incoming[i]!.seq <= prev) {
      inOrder = false;
      break;
    }
  }
  if (inOrder) return [...have, ...incoming];
  const bySeq = new Map<number, Message>();
  for (const m of have) bySeq.set(m.seq, m);
  for (const m of incoming) {
    const had = bySeq.get(m.seq);
    bySeq.set(m.seq, had ? newerCopy(had, m, fromPush) : m);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The highest seq held, 0 for none. */
export function highestSeq(messages: readonly Message[]): number {
  return messages.length > 0 ? messages[messages.length - 1]!.seq : 0;
}

/** The index of the message with this seq, or -1 (binary search over ascending seqs). */
export function indexOfSeq(messages: readonly Message[], seq: number): number {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = messages[mid]!.seq;
    if (s === seq) return mid;
    if (s < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// --- what the screens show -------------------------------------------------------

/** The line under a conversation in the list. */
export function snippetOf(m: Message | null, myId: string, kind: Conversation['kind']): string {
  if (!m) return 'No messages yet';
  const who = m.sender.id === myId ? 'You: ' : kind === 'group' ? `${m.sender.name.split(/\s+/)[0]}: ` : '';
  if (m.unsent) return MSG_UNSENT;
  const text = m.body.replace(/\s+/g, ' ').trim();
  return who + (text.length > 80 ? `${text.slice(0, 79)}…` : text);
}

/** "Asha is typing…", "Asha and Ravi are typing…", "3 people are typing…"; '' for nobody. */
export function typingText(names: readonly string[], direct: boolean): string {
  if (names.length === 0) return '';
  if (direct) return 'typing…';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return `${names.length} people are typing…`;
}

/** The calendar day of a time, as a key ('' when unreadable). */
export function dayKey(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

let dayFormat: Intl.DateTimeFormat | undefined;
let timeFormat: Intl.DateTimeFormat | undefined;

/** A day separator's words: Today, Yesterday, or the date. */
export function dayLabel(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const key = dayKey(iso);
  if (key === dayKey(new Date(now).toISOString())) return 'Today';
  if (key === dayKey(new Date(now - 24 * 3600 * 1000).toISOString())) return 'Yesterday';
  dayFormat ??= new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  return dayFormat.format(t);
}

/** A message's time of day. */
export function clockTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
  return timeFormat.format(t);
}

/** A message not yet acknowledged by the server: shown at the end, pending or failed. */
export interface PendingMessage {
  clientId: string;
  conversationId: string;
  body: string;
  replyTo: Message['replyTo'];
  status: 'pending' | 'failed';
  /** Why it failed, as the server or the network said. */
  error?: string;
  createdAt: string;
}

/** One row of a thread: a day separator, a message, or a message still being sent. */
export type ThreadRow =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'message'; key: string; message: Message; mine: boolean; firstOfRun: boolean; lastOfRun: boolean }
  | { kind: 'pending'; key: string; pending: PendingMessage };

/** Runs of one sender break after this long. */
const RUN_GAP_MS = 5 * 60 * 1000;

/**
 * The rows of a thread: messages in seq order with a separator before each
 * new day, each marked first/last of its sender's run (a run shows the name
 * and avatar once), then the messages still being sent.
 */
export function threadRows(messages: readonly Message[], pending: readonly PendingMessage[], myId: string, now = Date.now()): ThreadRow[] {
  const rows: ThreadRow[] = [];
  let day = '';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const d = dayKey(m.createdAt);
    const newDay = d !== day;
    if (newDay && d !== '') {
      rows.push({ kind: 'day', key: `d${d}`, label: dayLabel(m.createdAt, now) });
      day = d;
    }
    const prev = messages[i - 1];
    const next = messages[i + 1];
    const joins = (a: Message | undefined, b: Message | undefined) =>
      !!a && !!b && a.sender.id === b.sender.id && dayKey(a.createdAt) === dayKey(b.createdAt) && Math.abs(Date.parse(b.createdAt) - Date.parse(a.createdAt)) < RUN_GAP_MS;
    rows.push({
      kind: 'message',
      key: `m${m.seq}`,
      message: m,
      mine: m.sender.id === myId,
      firstOfRun: newDay || !joins(prev, m),
      lastOfRun: !joins(m, next),
    });
  }
  for (const p of pending) rows.push({ kind: 'pending', key: `c${p.clientId}`, pending: p });
  return rows;
}

/**
 * "Seen" under the caller's last message: for a direct conversation whether
 * the other member read it ('Seen'), for a group how many others did
 * ('Seen by 3'); '' when nobody has. `reads` are the members' read pointers.
 */
export function seenText(conv: Pick<Conversation, 'kind' | 'members'>, lastMineSeq: number, reads: Readonly<Record<string, number>>, myId: string): string {
  if (lastMineSeq <= 0) return '';
  let n = 0;
  for (const m of conv.members) {
    if (m.id === myId) continue;
    const r = Math.max(reads[m.id] ?? 0, m.readSeq ?? 0);
    if (r >= lastMineSeq) n++;
  }
  if (n === 0) return '';
  return conv.kind === 'direct' ? 'Seen' : n === conv.members.filter((m) => m.id !== myId).length ? 'Seen by everyone' : `Seen by ${n}`;
}

/** A fresh client id for a send (a retry reuses it, so the server joins the two). */
export function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  let id = '';
  for (let i = 0; i < 32; i++) id += Math.floor(Math.random() * 16).toString(16);
  return id;
}

/** The other person of a direct conversation (undefined for a group or a lone member). */
export function otherMember(conv: Pick<Conversation, 'kind' | 'members'>, myId: string): Member | undefined {
  return conv.kind === 'direct' ? conv.members.find((m) => m.id !== myId) : undefined;
}
