// A draft per conversation (issue 29), kept in localStorage for the signed-in
// user only: the stored drafts name their user, so another account signing in
// on this browser never sees them, and sign-out removes them
// (lib/storage's clearAuthStorage).

import { isRecord } from '../../api/models';
import { readJSON, removeKey, STORAGE_KEYS, writeJSON } from '../../lib/storage';

interface Stored {
  userId: string;
  drafts: Record<string, string>;
}

function read(userId: string): Record<string, string> {
  const v = readJSON(STORAGE_KEYS.messageDrafts);
  if (!isRecord(v) || v.userId !== userId || !isRecord(v.drafts)) return {};
  const out: Record<string, string> = {};
  for (const [k, text] of Object.entries(v.drafts)) if (typeof text === 'string' && text !== '') out[k] = text;
  return out;
}

/** The draft of a conversation for this user ('' for none). */
export function readDraft(userId: string, conversationId: string): string {
  return userId ? (read(userId)[conversationId] ?? '') : '';
}

/** Keeps (or, for '', forgets) the draft of a conversation. */
export function writeDraft(userId: string, conversationId: string, text: string): void {
  if (!userId) return;
  const drafts = read(userId);
  if (text.trim() === '') delete drafts[conversationId];
  else drafts[conversationId] = text;
  if (Object.keys(drafts).length === 0) removeKey(STORAGE_KEYS.messageDrafts);
  else writeJSON(STORAGE_KEYS.messageDrafts, { userId, drafts } satisfies Stored);
}
