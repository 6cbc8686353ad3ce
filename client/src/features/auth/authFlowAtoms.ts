// Which signed-out screen shows (docs/product.md §4 Auth screen modes): login, signup,
// verify (the e-mail code), forgot, reset. Screens hand values to each other
// through it (the identifier to prefill, the address being verified).

import { atom } from 'jotai';
import type { Role } from '../../api/models';
import { scrollToTop } from '../../lib/scroll';

export type AuthScreen =
  | { name: 'login'; identifier?: string; role?: Role; notice?: string }
  | { name: 'signup'; role?: Role; email?: string }
  /** email '' when only a masked address is known: the screen then asks for it. */
  | { name: 'verify'; email: string; maskedEmail?: string; notice?: string }
  | { name: 'forgot'; identifier?: string; role?: Role }
  | { name: 'reset'; identifier: string; role: Role; notice?: string };

const authScreenBaseAtom = atom<AuthScreen>({ name: 'login' });

export const authScreenAtom = atom((get) => get(authScreenBaseAtom));

export const showAuthScreenAtom = atom(null, (_get, set, screen: AuthScreen) => {
  set(authScreenBaseAtom, screen);
  scrollToTop();
});
