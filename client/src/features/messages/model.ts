// Conversations and messages (issue 29) as the client holds them: tolerant
// readers of the server's shapes, and the pure rules of a thread — order by
// seq, never a message twice, which copy of a message is the newer. What the
// screens show of them is ./view (the shell carries this module, not that one).

import { idOf, isRecord, normalizeImage, num, str, normalizeVariants } from '../../api/models';
import type { ImageVariant } from '../../lib/srcset';

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

/** One of a message's up to 4 images, in the form posts answer theirs. */
export interface MessageImage {
  url: string;
  /** The original's size; 0 when unknown. */
  width: number;
  height: number;
  /** The sender's description for people who cannot see it; '' for none. */
  alt: string;
  /** Smaller copies, ascending by width (srcset). */
  variants: ImageVariant[];
}

export interface Message {
  id: string;
  conversationId: string;
  seq: number;
  sender: UserBrief;
  /** '' when unsent, or for a message of images only. */
  body: string;
  /** None once unsent. */
  images: MessageImage[];
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
  /** Set on a group's chat (issue 18's group): its members are the group's, managed there. */
  group: { id: string; handle: string; avatarUrl: string } | null;
  role: MemberRole;
  updatedAt: string;
  createdAt: string;
}

export type AllowFrom = 'friends' | 'course' | 'department' | 'everyone';

/** How long another member's typing shows unless renewed. */
export const TYPING_SHOW_MS = 5000;
/** At most one typing frame per conversation this often. */
export const TYPING_SEND_MS = 2000;
export const MESSAGES_PAGE = 30;
// --- reading the server's shapes ---------------------------------------------

export function normalizeBrief(v: unknown): UserBrief {
  const r = isRecord(v) ? v : {};
  const a = r.avatar;
  let avatarUrl = '';
  if (isRecord(a)) avatarUrl = str(a.thumbnailUrl) || str(a.thumbUrl) || str(a.url);
  else if (typeof a === 'string') avatarUrl = normalizeImage(a).url;
  return { id: idOf(r), name: str(r.name).trim() || 'User', avatarUrl };
}

function normalizeMessageImages(v: unknown): MessageImage[] {
  if (!Array.isArray(v)) return [];
  const out: MessageImage[] = [];
  for (const x of v) {
    if (!isRecord(x)) continue;
    const url = str(x.url);
    if (url) out.push({ url, width: Math.max(0, num(x.width)), height: Math.max(0, num(x.height)), alt: str(x.alt), variants: normalizeVariants(x.variants) });
  }
  return out;
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
    images: unsent ? [] : normalizeMessageImages(v.images),
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
    group: isRecord(v.group) && idOf(v.group) ? { id: idOf(v.group), handle: str(v.group.handle), avatarUrl: str(v.group.avatarUrl) } : null,
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

/** An image picked for a message, with its preview (an object URL) and description. */
export interface OutgoingImage {
  file: File;
  /** The preview's object URL ('' where the browser makes none); revoked once the send settles. */
  url: string;
  alt: string;
}

/** A message not yet acknowledged by the server: shown at the end, pending or failed. */
export interface PendingMessage {
  clientId: string;
  conversationId: string;
  body: string;
  /** Sent with it (multipart); a retry sends the same ones under the same clientId. */
  images: OutgoingImage[];
  replyTo: Message['replyTo'];
  status: 'pending' | 'failed';
  /** How much of the images went up (0–100), while pending. */
  progress?: number;
  /** Why it failed, as the server or the network said. */
  error?: string;
  createdAt: string;
}

/** A fresh client id for a send (a retry reuses it, so the server joins the two). */
export function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  let id = '';
  for (let i = 0; i < 32; i++) id += Math.floor(Math.random() * 16).toString(16);
  return id;
}

