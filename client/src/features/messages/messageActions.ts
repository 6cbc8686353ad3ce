// What changes messages (issue 29): sending (at once on screen, then as the
// server acknowledges it; Retry with the same clientId), typing, edit,
// unsend, reactions, and starting and running conversations. These load
// with the messages screens; the store they write is ./messagesAtoms.

import { atom } from 'jotai';
import { isApiError } from '../../api/http';
import { currentUserAtom } from '../auth/authAtoms';
import { sendSocketFrameAtom } from '../realtime/realtimeAtoms';
import {
  addMembers,
  createGroupConversation,
  editMessage,
  react,
  removeMember,
  sendMessage,
  startDirect,
  unreact,
  unsendMessage,
  updateConversation,
} from './actionsApi';
import {
  addPendingAtom,
  applyMessageCopyAtom,
  dropConversationAtom,
  dropMemberAtom,
  fillGapAtom,
  loadConversationAtom,
  mergeOwnMessagesAtom,
  pendingAtom,
  updatePendingAtom,
  upsertConversationAtom,
} from './messagesAtoms';
import { newClientId, TYPING_SEND_MS, type Conversation, type Message, type OutgoingImage, type PendingMessage } from './model';

/** When this tab last told each conversation I was typing. */
const typingSentBaseAtom = atom<Record<string, number>>({});

const deliverAtom = atom(null, async (get, set, p: PendingMessage) => {
  // The upload's progress shows on the pending copy (a few steps, not every event).
  let shown = -1;
  const onProgress = (percent: number) => {
    const step = percent >= 100 ? 100 : Math.floor(percent / 10) * 10;
    if (step === shown) return;
    shown = step;
    const now = get(pendingAtom(p.conversationId)).find((x) => x.clientId === p.clientId);
    if (now?.status === 'pending') set(updatePendingAtom, { ...now, progress: step });
  };
  try {
    const m = await sendMessage(
      p.conversationId,
      {
        clientId: p.clientId,
        body: p.body,
        images: p.images,
        ...(p.replyTo ? { replyToSeq: p.replyTo.seq } : {}),
      },
      p.images.length > 0 ? onProgress : undefined,
    );
    set(mergeOwnMessagesAtom, { conversationId: p.conversationId, messages: [m] });
  } catch (err) {
    set(updatePendingAtom, { ...p, status: 'failed', error: isApiError(err) ? err.message : 'Not sent.' });
    // A 403: maybe read-only now (a block, removed); the banner should say so.
    if (isApiError(err) && err.status === 403) void set(loadConversationAtom, p.conversationId);
  }
});

/** A message to send: text, images or both, maybe a reply. */
export interface NewMessage {
  conversationId: string;
  body: string;
  images?: OutgoingImage[];
  replyTo?: Message['replyTo'];
}

/** Sends a message at once on screen (pending), then as the server acknowledges it. */
export const sendMessageAtom = atom(null, async (get, set, a: NewMessage) => {
  const p: PendingMessage = {
    clientId: newClientId(),
    conversationId: a.conversationId,
    body: a.body,
    images: a.images ?? [],
    replyTo: a.replyTo ?? null,
    status: 'pending',
    createdAt: new Date().toISOString(),
  };
  set(addPendingAtom, p);
  // The message ends the typing: the next keystroke may say so again at once.
  set(typingSentBaseAtom, { ...get(typingSentBaseAtom), [a.conversationId]: 0 });
  await set(deliverAtom, p);
});

/**
 * Sends a failed message again with the same clientId (the server joins it to
 * an earlier success). With images, the thread is read first: a send whose
 * answer was lost may have been stored, and then it arrives with its clientId
 * and the images are not uploaded again.
 */
export const retrySendAtom = atom(null, async (get, set, a: { conversationId: string; clientId: string }) => {
  const p = get(pendingAtom(a.conversationId)).find((x) => x.clientId === a.clientId);
  if (!p || p.status !== 'failed') return;
  const again: PendingMessage = { ...p, status: 'pending', error: undefined, progress: undefined };
  set(updatePendingAtom, again);
  if (p.images.length > 0) {
    await set(fillGapAtom, a.conversationId);
    if (!get(pendingAtom(a.conversationId)).some((x) => x.clientId === a.clientId)) return;
  }
  await set(deliverAtom, again);
});

/** Tells the others I am typing: at most one frame per conversation every TYPING_SEND_MS. */
export const sendTypingAtom = atom(null, (get, set, id: string) => {
  const now = Date.now();
  const last = get(typingSentBaseAtom)[id] ?? 0;
  if (now - last < TYPING_SEND_MS) return;
  if (set(sendSocketFrameAtom, { event: 'typing', data: { conversationId: id } })) {
    set(typingSentBaseAtom, { ...get(typingSentBaseAtom), [id]: now });
  }
});

export const editMessageAtom = atom(null, async (_get, set, a: { conversationId: string; seq: number; body: string }) => {
  set(applyMessageCopyAtom, await editMessage(a.conversationId, a.seq, a.body));
});

export const unsendMessageAtom = atom(null, async (_get, set, a: { conversationId: string; seq: number }) => {
  set(applyMessageCopyAtom, await unsendMessage(a.conversationId, a.seq));
});

/** My reaction: `emoji` replaces it; null takes it back. */
export const setReactionAtom = atom(null, async (_get, set, a: { conversationId: string; seq: number; emoji: string | null }) => {
  set(applyMessageCopyAtom, a.emoji ? await react(a.conversationId, a.seq, a.emoji) : await unreact(a.conversationId, a.seq));
});

export const startDirectAtom = atom(null, async (_get, set, userId: string): Promise<Conversation> => {
  const c = await startDirect(userId);
  set(upsertConversationAtom, c);
  return c;
});

export const createGroupAtom = atom(null, async (_get, set, a: { title: string; memberIds: string[] }): Promise<Conversation> => {
  const c = await createGroupConversation(a.title, a.memberIds);
  set(upsertConversationAtom, c);
  return c;
});

export const updateConversationAtom = atom(null, async (_get, set, a: { id: string; title?: string; muted?: boolean }) => {
  const { id, ...patch } = a;
  set(upsertConversationAtom, await updateConversation(id, patch));
});

export const addMembersAtom = atom(null, async (_get, set, a: { id: string; userIds: string[] }) => {
  set(upsertConversationAtom, await addMembers(a.id, a.userIds));
});

/** An admin removes a member; the conversation is read again as it now is. */
export const removeMemberAtom = atom(null, async (_get, set, a: { id: string; userId: string }) => {
  await removeMember(a.id, a.userId);
  set(dropMemberAtom, a);
  void set(loadConversationAtom, a.id);
});

/** I leave a group: it leaves my list. */
export const leaveConversationAtom = atom(null, async (get, set, id: string) => {
  await removeMember(id, get(currentUserAtom)?.id ?? '');
  set(dropConversationAtom, id);
});
