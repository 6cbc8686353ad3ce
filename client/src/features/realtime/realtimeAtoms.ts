// The socket's own state, for the shell's "reconnecting" hint and for
// features that react to personal events (friend:request, post:like…).

import { atom } from 'jotai';
import type { ClientEventName, ClientEvents, ClientFrame, ServerFrame } from '../../api/protocol';
import type { SocketStatus } from '../../api/socket';

const socketStatusBaseAtom = atom<SocketStatus>('idle');
const lastEventBaseAtom = atom<ServerFrame | null>(null);
const lastTestResponseBaseAtom = atom<number | null>(null);

export const socketStatusAtom = atom((get) => get(socketStatusBaseAtom));
/** The newest event from the server (any kind). */
export const lastServerEventAtom = atom((get) => get(lastEventBaseAtom));
/** When the server last answered the test ping (ms since epoch). */
export const lastTestResponseAtom = atom((get) => get(lastTestResponseBaseAtom));

export const setSocketStatusAtom = atom(null, (_get, set, s: SocketStatus) => set(socketStatusBaseAtom, s));
export const recordServerEventAtom = atom(null, (_get, set, f: ServerFrame) => set(lastEventBaseAtom, f));
export const recordTestResponseAtom = atom(null, (_get, set, at: number) => set(lastTestResponseBaseAtom, at));

/** Sends a client frame on the open socket; false when there is none (not connected). */
export type SocketSender = <K extends ClientEventName>(event: K, data: ClientEvents[K]) => boolean;

// The socket belongs to app/ (features never import it): app/realtime
// registers its send here, and features send ephemeral frames (typing)
// through sendSocketFrameAtom. Nothing is queued: a frame that cannot go now
// is dropped, which is right for what goes this way.
const senderBaseAtom = atom<{ send: SocketSender } | null>(null);

export const setSocketSenderAtom = atom(null, (_get, set, send: SocketSender | null) =>
  set(senderBaseAtom, send ? { send } : null),
);

/** Sends one frame if the socket is open; answers whether it went. */
export const sendSocketFrameAtom = atom(null, (get, _set, frame: ClientFrame): boolean =>
  get(senderBaseAtom)?.send(frame.event, frame.data) ?? false,
);
