// What the messages screens show (issue 29): the words, the rows of a
// thread (day separators, runs of one sender), "Seen", typing lines and
// snippets. Pure; apart from the store (./model), which the shell loads
// before the screens, so that the first screen carries none of it.

import type { AllowFrom, Conversation, Member, Message, PendingMessage, ReadOnlyReason } from './model';

export const MAX_TITLE_LENGTH = 80;
/** Members of a group counting its creator (the contract's 2–256). */
export const MAX_GROUP_MEMBERS = 256;
export const MAX_MESSAGE_LENGTH = 5000;
/** Images in one message (the server's limit). */
export const MAX_MESSAGE_IMAGES = 4;
export const MSG_TOO_MANY_MESSAGE_IMAGES = 'You can send a maximum of 4 images in a message.';
/** How much of a message a reply quotes (the server cuts its own quote at 120). */
const REPLY_SNIPPET = 120;

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

// --- what the screens show -------------------------------------------------------

/**
 * What stands for the text of a message of images only wherever a message
 * is shown by its text alone — the list, a reply's quote, a push, a screen
 * reader's announcement: the server's words (domain.ImagesOnlyText).
 */
export function imagesOnlyText(images: number): string {
  if (images <= 0) return '';
  return images === 1 ? 'Photo' : `${images} photos`;
}

/** A message's text on one line, or what stands for it when it has images only. */
export function textOf(m: Pick<Message, 'body' | 'images' | 'unsent'>): string {
  if (m.unsent) return MSG_UNSENT;
  const text = m.body.replace(/\s+/g, ' ').trim();
  return text || imagesOnlyText(m.images.length);
}

/** The line under a conversation in the list. */
export function snippetOf(m: Message | null, myId: string, kind: Conversation['kind']): string {
  if (!m) return 'No messages yet';
  const who = m.sender.id === myId ? 'You: ' : kind === 'group' ? `${m.sender.name.split(/\s+/)[0]}: ` : '';
  if (m.unsent) return MSG_UNSENT;
  const text = textOf(m);
  return who + (text.length > 80 ? `${text.slice(0, 79)}…` : text);
}

/** The quote a reply to m carries until the server's copy replaces it ('' when m was unsent). */
export function replyOf(m: Message): NonNullable<Message['replyTo']> {
  const text = m.unsent ? '' : textOf(m);
  return { seq: m.seq, senderName: m.sender.name, snippet: text.length > REPLY_SNIPPET ? `${text.slice(0, REPLY_SNIPPET)}…` : text };
}

/**
 * The picture of a conversation: the other person's (direct), the group's
 * (a group's chat); '' for a group of its own, which shows its initials.
 */
export function conversationAvatar(conv: Pick<Conversation, 'kind' | 'members' | 'group'>, myId: string): string {
  if (conv.group) return conv.group.avatarUrl;
  return otherMember(conv, myId)?.avatarUrl ?? '';
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

/** One row of a thread: a day separator, a message, or a message still being sent. */
export type ThreadRow =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'message'; key: string; message: Message; mine: boolean; firstOfRun: boolean; lastOfRun: boolean }
  | { kind: 'pending'; key: string; pending: PendingMessage };

/** Runs of one sender break after this long. */
const RUN_GAP_MS = 5 * 60 * 1000;

/**
 * The rows of a thread: messages in seq order with a separator before each
 * new day (keyed by the day's first message held, so an older page moves it
 * rather than the reader's place), each marked first/last of its sender's run (a run shows the name
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
      rows.push({ kind: 'day', key: `d${m.seq}`, label: dayLabel(m.createdAt, now) });
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

/** The other person of a direct conversation (undefined for a group or a lone member). */
export function otherMember(conv: Pick<Conversation, 'kind' | 'members'>, myId: string): Member | undefined {
  return conv.kind === 'direct' ? conv.members.find((m) => m.id !== myId) : undefined;
}
