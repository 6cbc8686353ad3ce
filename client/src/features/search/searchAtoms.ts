// Whether the search overlay is open (spec §2.9: it closes on an outside
// click, on navigation and on a page change).

import { atom } from 'jotai';

const openBaseAtom = atom(false);

export const searchOpenAtom = atom((get) => get(openBaseAtom));
export const setSearchOpenAtom = atom(null, (_get, set, open: boolean) => set(openBaseAtom, open));
