// Who is signed in (docs/product.md §3 Auth state, §4 Auth). The token and the user are
// kept in localStorage; the saved state is validated when first read and an
// invalid shape, or a user without a string id, clears it. Only derived and
// action atoms are exported.

import { requestLandingFocus } from '../../lib/landingFocus';
import { atom } from 'jotai';
import { getToken } from '../../api/http';
import { hasStringId, isRecord, normalizeUser, type User } from '../../api/models';
import { holdRedirects } from '../../lib/redirect';
import {
  clearAuthStorage,
  readJSON,
  removeKey,
  STORAGE_KEYS,
  writeJSON,
  writeString,
} from '../../lib/storage';
import { fetchMe, logout } from './authApi';

export interface Session {
  token: string;
  user: User;
}

/** Reads and validates the saved session; clears anything unusable. */
export function readSavedSession(): Session | null {
  const token = getToken();
  const saved = readJSON(STORAGE_KEYS.auth);
  if (token === null && saved === undefined) return null;
  if (token === null || !isRecord(saved) || !hasStringId(saved.user)) {
    removeKey(STORAGE_KEYS.token);
    removeKey(STORAGE_KEYS.auth);
    return null;
  }
  return { token, user: normalizeUser(saved.user) };
}

function saveSession(s: Session): void {
  writeString(STORAGE_KEYS.token, s.token);
  writeJSON(STORAGE_KEYS.auth, { isAuthenticated: true, user: s.user });
}

// undefined: not read from storage yet in this store (each page load, each test).
const sessionBaseAtom = atom<Session | null | undefined>(undefined);

/** The current session, or null when signed out. */
export const sessionAtom = atom<Session | null>((get) => {
  const s = get(sessionBaseAtom);
  return s === undefined ? readSavedSession() : s;
});

export const currentUserAtom = atom<User | null>((get) => get(sessionAtom)?.user ?? null);
export const isAuthenticatedAtom = atom<boolean>((get) => get(sessionAtom) !== null);
export const authTokenAtom = atom<string | null>((get) => get(sessionAtom)?.token ?? null);

/**
 * Signs in after a login or a code verification: token and user saved, page
 * set to feed (docs/product.md §4).
 */
export const signInAtom = atom(null, (_get, set, session: Session) => {
  // The form that signed in goes away: the shell focuses where work starts.
  requestLandingFocus();
  saveSession(session);
  writeString(STORAGE_KEYS.page, 'feed');
  set(sessionBaseAtom, session);
});

/** Merges fresh user fields (profile setup, GET /users/me) into the session. */
export const updateCurrentUserAtom = atom(null, (get, set, patch: Partial<User>) => {
  const s = get(sessionAtom);
  if (!s) return;
  const next: Session = { ...s, user: { ...s.user, ...patch, id: s.user.id } };
  saveSession(next);
  set(sessionBaseAtom, next);
});

/**
 * Stores the new token an e-mail or password change answers (the server
 * revoked every older one), with any fresh user fields. The socket
 * reconnects with it (useRealtime follows authTokenAtom).
 */
export const replaceTokenAtom = atom(null, (get, set, token: string, patch?: Partial<User>) => {
  const s = get(sessionAtom);
  if (!s || token.trim() === '') return;
  const next: Session = { token, user: { ...s.user, ...patch, id: s.user.id } };
  saveSession(next);
  set(sessionBaseAtom, next);
});

/** Start-up check of the saved token (docs/product.md §4): refreshes the user; a 401 signs out in http.ts. */
export const refreshCurrentUserAtom = atom(null, async (get, set) => {
  if (!get(sessionAtom)) return;
  try {
    const user = await fetchMe();
    if (get(sessionAtom)) set(updateCurrentUserAtom, user);
  } catch {
    // Offline or a server hiccup: keep the saved user; a 401 has already been handled.
  }
});

/** Forgets the session locally (no redirect). */
export const clearSessionAtom = atom(null, (_get, set) => {
  clearAuthStorage();
  set(sessionBaseAtom, null);
});

/**
 * 'Log Out' (docs/product.md §2.9): POST /api/auth/logout, then clear and start over on
 * the login page with a fresh page load, so nothing of this user stays in memory
 * (by way of the identity provider's logout when the server names one).
 */
export const logoutAtom = atom(null, async (_get, set) => {
  // From here the logout alone decides where the page goes: a call or the
  // socket meeting the revoked token's 401 must not leave for '/' first.
  const leave = holdRedirects();
  let idpLogout = '';
  try {
    // This device stops receiving the account's pushes (issue 16): the next
    // person to use it must not see them. Best effort, and bounded, so an
    // unreachable push service never holds up signing out.
    try {
      const { disablePush } = await import('../push/push');
      await Promise.race([disablePush(), new Promise((resolve) => setTimeout(resolve, 3000))]);
    } catch {
      // No push here, or the server away: the subscription is retired when its endpoint is gone.
    }
    try {
      idpLogout = await logout();
    } catch {
      // The token may already be invalid or the server away: signing out locally is what matters.
    }
    set(clearSessionAtom);
  } finally {
    // Signed in through the university: its session ends too, and its
    // logout page sends the browser back to our login page.
    leave(idpLogout || '/login');
  }
});
