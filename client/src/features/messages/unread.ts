// The unread messages total behind the Messages badges and the tab title, in
// a module of its own: the app's first chunk reads it, and the rest of the
// messages state loads with the signed-in shell.

import { atom } from 'jotai';

const unreadTotalBaseAtom = atom(0);

/** Unread messages over every conversation (the server's unreadTotal, kept live). */
export const unreadMessagesAtom = atom((get) => get(unreadTotalBaseAtom));

export const setUnreadMessagesAtom = atom(null, (_get, set, n: number) => {
  set(unreadTotalBaseAtom, Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
});
