// The messages calls (issue 29): conversations, their messages, read
// pointers, reports and the "who can message you" setting. Answers are read
// with the tolerant normalizers of ./model; an error is the ApiError of
// api/http, whose message is the server's own for a 403 or a 429.

import { apiDelete, apiGet, apiPatch, apiPost, apiPut } from '../../api/http';
import { isRecord, num, str } from '../../api/models';
import {
  normalizeConversation,
  normalizeMessage,
  normalizeMessages,
  type AllowFrom,
  type Conversation,
  type Message,
} from './model';
import { MESSAGES_PAGE } from './model';

const conv = (id: string) => `/conversations/${encodeURIComponent(id)}`;

function conversationOf(data: unknown): Conversation {
  const c = normalizeConversation(data);
  if (!c) throw new Error('messages: the server answered no conversation');
  return c;
}

function messageOf(data: unknown, conversationId: string): Message {
  const m = normalizeMessage(data, conversationId);
  if (!m) throw new Error('messages: the server answered no message');
  return m;
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

export async function fetchConversation(id: string): Promise<Conversation> {
  return conversationOf(await apiGet<unknown>(conv(id)));
}

/** The direct conversation with a person: the existing one or a new one. */
export async function startDirect(userId: string): Promise<Conversation> {
  return conversationOf(await apiPost<unknown>('/conversations', { kind: 'direct', userId }));
}

export async function createGroupConversation(title: string, memberIds: string[]): Promise<Conversation> {
  return conversationOf(await apiPost<unknown>('/conversations', { kind: 'group', title, memberIds }));
}

export async function updateConversation(id: string, patch: { title?: string; muted?: boolean }): Promise<Conversation> {
  return conversationOf(await apiPatch<unknown>(conv(id), patch));
}

export async function addMembers(id: string, userIds: string[]): Promise<Conversation> {
  return conversationOf(await apiPost<unknown>(`${conv(id)}/members`, { userIds }));
}

/** An admin removes someone; with the caller's own id, the caller leaves. */
export async function removeMember(id: string, userId: string): Promise<string> {
  const data = await apiDelete<unknown>(`${conv(id)}/members/${encodeURIComponent(userId)}`);
  return isRecord(data) ? str(data.message) : '';
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

export async function sendMessage(id: string, body: { clientId: string; body: string; replyToSeq?: number }): Promise<Message> {
  return messageOf(await apiPost<unknown>(`${conv(id)}/messages`, body), id);
}

export async function editMessage(id: string, seq: number, body: string): Promise<Message> {
  return messageOf(await apiPatch<unknown>(`${conv(id)}/messages/${seq}`, { body }), id);
}

export async function unsendMessage(id: string, seq: number): Promise<Message> {
  return messageOf(await apiDelete<unknown>(`${conv(id)}/messages/${seq}`), id);
}

export async function react(id: string, seq: number, emoji: string): Promise<Message> {
  return messageOf(await apiPut<unknown>(`${conv(id)}/messages/${seq}/reaction`, { emoji }), id);
}

export async function unreact(id: string, seq: number): Promise<Message> {
  return messageOf(await apiDelete<unknown>(`${conv(id)}/messages/${seq}/reaction`), id);
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

/** Reports a message (the report keeps a copy for the moderators); answers the server's words. */
export async function reportMessage(id: string, seq: number, reason: string, details: string): Promise<string> {
  const data = await apiPost<unknown>(`${conv(id)}/messages/${seq}/report`, details ? { reason, details } : { reason });
  return isRecord(data) ? str(data.message) : '';
}

function allowFromOf(data: unknown): AllowFrom {
  const v = isRecord(data) ? data.allowFrom : undefined;
  return v === 'course' || v === 'department' || v === 'everyone' ? v : 'friends';
}

export async function fetchMessageSettings(): Promise<AllowFrom> {
  return allowFromOf(await apiGet<unknown>('/users/me/message-settings'));
}

export async function saveMessageSettings(allowFrom: AllowFrom): Promise<AllowFrom> {
  return allowFromOf(await apiPut<unknown>('/users/me/message-settings', { allowFrom }));
}
