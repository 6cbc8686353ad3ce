// Pending friend requests, for the red Friends buttons (spec §2.9). The
// friends screen owns the lists; this count is what the bars need.

import { atom } from 'jotai';
import { fetchPendingRequestCount } from './friendsApi';

const pendingCountBaseAtom = atom(0);

export const pendingRequestsCountAtom = atom((get) => get(pendingCountBaseAtom));
export const hasPendingRequestsAtom = atom((get) => get(pendingCountBaseAtom) > 0);

export const setPendingRequestsCountAtom = atom(null, (_get, set, n: number) => {
  set(pendingCountBaseAtom, Math.max(0, Math.floor(n)));
});

/** A live friend:request arrived. */
export const friendRequestReceivedAtom = atom(null, (get, set) => {
  set(pendingCountBaseAtom, get(pendingCountBaseAtom) + 1);
});

export const refreshPendingRequestsAtom = atom(null, async (_get, set) => {
  try {
    set(setPendingRequestsCountAtom, await fetchPendingRequestCount());
  } catch {
    // Friend list reads are empty on error (spec §8.5): keep the current count.
  }
});
