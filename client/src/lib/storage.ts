// Everything the client keeps in web storage, in one place, behind helpers
// that never throw: storage can be blocked (privacy mode, sandboxed frames) and
// the app must still work for the current page.
//
// Where a page is open is a property of the tab, not of the browser: the page
// keys live in sessionStorage (SESSION_KEYS) so a reload of one tab never lands
// on a page opened in another. Everything else is shared in localStorage.

import { STORAGE_KEYS, type StorageKey } from './storageKeys';

export { STORAGE_KEYS, type StorageKey };

/** The keys kept per tab (sessionStorage). */
export const SESSION_KEYS: ReadonlySet<StorageKey> = new Set<StorageKey>([
  STORAGE_KEYS.page,
  STORAGE_KEYS.previousPage,
  STORAGE_KEYS.viewedUserId,
  STORAGE_KEYS.friendsTab,
  STORAGE_KEYS.chunkReload,
  STORAGE_KEYS.signOutNotice,
]);

function storeOf(key: StorageKey): Storage {
  return SESSION_KEYS.has(key) ? window.sessionStorage : window.localStorage;
}

export function readString(key: StorageKey): string | null {
  try {
    return storeOf(key).getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: StorageKey, value: string): void {
  try {
    storeOf(key).setItem(key, value);
  } catch {
    // Not persisted; the value still applies in memory for this page.
  }
}

export function removeKey(key: StorageKey): void {
  try {
    storeOf(key).removeItem(key);
  } catch {
    // nothing to do
  }
}

export function readJSON(key: StorageKey): unknown {
  const raw = readString(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export function writeJSON(key: StorageKey, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

/**
 * docs/product.md §4: logout and any 401 remove the token, the saved auth state and the
 * current page; and the message drafts and what was kept for reading offline,
 * which are the account's private words and pages.
 */
export function clearAuthStorage(): void {
  removeKey(STORAGE_KEYS.messageDrafts);
  removeKey(STORAGE_KEYS.offline);
  removeKey(STORAGE_KEYS.token);
  removeKey(STORAGE_KEYS.auth);
  removeKey(STORAGE_KEYS.page);
  removeKey(STORAGE_KEYS.onboarding);
}

/**
 * The login screen's 'Clear stored data and try again': everything we keep
 * except the theme, which cannot be corrupt in a way that breaks signing in
 * and which the user would not expect to lose.
 */
export function clearAllStoredData(): void {
  for (const key of Object.values(STORAGE_KEYS)) {
    if (key !== STORAGE_KEYS.theme) removeKey(key);
  }
}
