// The messages calls that change things (issue 29): start a conversation,
// send, edit, unsend, react, report, the group's name and members, and the
// "who can message you" setting. An error is the ApiError of api/http,
// whose message is the server's own for a 403 or a 429.

import { apiDelete, apiGet, apiPatch, apiPost, apiPut, upload } from '../../api/http';
import { isRecord, str } from '../../api/models';
import { conversationOf } from './messagesApi';
import { normalizeMessage, type AllowFrom, type Conversation, type Message } from './model';

const conv = (id: string) => `/conversations/${encodeURIComponent(id)}`;

function messageOf(data: unknown, conversationId: string): Message {
  const m = normalizeMessage(data, conversationId);
  if (!m) throw new Error('messages: the server answered no message');
  return m;
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

export interface OutgoingMessage {
  clientId: string;
  body: string;
  replyToSeq?: number;
  /** Up to 4, with their descriptions: sent as multipart (images[] and imageAlts, in order). */
  images?: ReadonlyArray<{ file: File; alt: string }>;
}

/**
 * Sends a message: JSON, or multipart when it has images (the same fields,
 * the files under images[] and one imageAlts per image). The server answers
 * a clientId it already stored with the original, storing no image twice.
 */
export async function sendMessage(id: string, m: OutgoingMessage, onProgress?: (percent: number) => void): Promise<Message> {
  const path = `${conv(id)}/messages`;
  const images = m.images ?? [];
  if (images.length === 0) {
    const body: { clientId: string; body: string; replyToSeq?: number } = { clientId: m.clientId, body: m.body };
    if (m.replyToSeq !== undefined) body.replyToSeq = m.replyToSeq;
    return messageOf(await apiPost<unknown>(path, body), id);
  }
  const form = new FormData();
  form.append('clientId', m.clientId);
  form.append('body', m.body);
  if (m.replyToSeq !== undefined) form.append('replyToSeq', String(m.replyToSeq));
  for (const im of images) form.append('images[]', im.file, im.file.name || 'image');
  for (const im of images) form.append('imageAlts', im.alt.trim());
  return messageOf(await upload<unknown>(path, form, { onProgress }), id);
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
