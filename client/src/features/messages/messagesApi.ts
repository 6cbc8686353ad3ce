// The messages calls the store needs to read (issue 29): the conversations,
// a thread's pages and the read pointer. What changes things is ./actionsApi
// (loaded with the screens). Answers are read with the tolerant normalizers
// of ./model; an error is the ApiError of api/http.

import { apiGet, apiPost } from '../../api/http';
import { isRecord, num, str } from '../../api/models';
import { MESSAGES_PAGE, normalizeConversation, normalizeMessages, type Conversation, type Message } from './model';

const conv = (id: string) => `/conversations/${encodeURIComponent(id)}`;

/** The conversation of an answer, or an error when it has none. */
export function conversationOf(data: unknown): Conversation {
  const c = normalizeConversation(data);
  if (!c) throw new Error('messages: the server answered no conversation');
  return c;
}

export async function fetchConversation(id: string): Promise<Conversation> {
  return conversationOf(await apiGet<unknown>(conv(id)));
}

export interface ConversationsPage {
  conversations: Conversation[];
  nextCursor: string | null;
  unreadTotal: number;
}

export async function fetchConversations(cursor: string | null = null, limit = 20): Promise<ConversationsPage> {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  const data = await apiGet<unknown>(`/conversations?${q.toString()}`);
  const r = isRecord(data) ? data : {};
  const list = Array.isArray(r.conversations) ? r.conversations : [];
  return {
    conversations: list.map(normalizeConversation).filter((c): c is Conversation => c !== null),
    nextCursor: str(r.nextCursor) || null,
    unreadTotal: Math.max(0, Math.floor(num(r.unreadTotal))),
  };
}

export interface MessagesPage {
  messages: Message[];
  hasMore: boolean;
}

/**
 * A page of a thread: with beforeSeq the older page before it (newest last),
 * with afterSeq the messages after it (oldest first), with neither the newest page.
 */
export async function fetchMessages(
  id: string,
  opts: { beforeSeq?: number; afterSeq?: number; limit?: number } = {},
): Promise<MessagesPage> {
  const q = new URLSearchParams({ limit: String(opts.limit ?? MESSAGES_PAGE) });
  if (opts.beforeSeq !== undefined) q.set('beforeSeq', String(opts.beforeSeq));
  if (opts.afterSeq !== undefined) q.set('afterSeq', String(opts.afterSeq));
  const data = await apiGet<unknown>(`${conv(id)}/messages?${q.toString()}`);
  const r = isRecord(data) ? data : {};
  return { messages: normalizeMessages(r.messages, id), hasMore: r.hasMore === true };
}

export interface ReadAnswer {
  readSeq: number;
  unreadCount: number;
  unreadTotal: number;
}

export async function markRead(id: string, seq: number): Promise<ReadAnswer> {
  const data = await apiPost<unknown>(`${conv(id)}/read`, { seq });
  const r = isRecord(data) ? data : {};
  return { readSeq: num(r.readSeq, seq), unreadCount: Math.max(0, num(r.unreadCount)), unreadTotal: Math.max(0, num(r.unreadTotal)) };
}

