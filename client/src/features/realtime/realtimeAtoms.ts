// The socket's own state, for the shell's "reconnecting" hint and for
// features that react to personal events (friend:request, post:like…).

import { atom } from 'jotai';
import type { ServerFrame } from '../../api/protocol';
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
