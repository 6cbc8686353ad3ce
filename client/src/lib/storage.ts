// Everything the client keeps in web storage, in one place, behind helpers
// that never throw: storage can be blocked (privacy mode, sandboxed frames) and
// the app must still work for the current page.
//
// Where a page is open is a property of the tab, not of the browser: the page
// keys live in sessionStorage (SESSION_KEYS) so a reload of one tab never lands
// on a page opened in another. Everything else is shared in localStorage.

export const STORAGE_KEYS = {
  /** Bearer token (spec §6: every non-auth call carries it). */
  token: 'campus.token',
  /** Saved auth state: {user} (spec §4, validated at start-up). */
  auth: 'campus.auth',
  /** Current page name (spec §2.2). */
  page: 'campus.page',
  /** Page to return to from settings (spec §2.2, §2.16). */
  previousPage: 'campus.previousPage',
  /** The profile being viewed (spec §2.2). */
  viewedUserId: 'campus.viewedUserId',
  /** Active profile tab (spec §2.2). */
  profileTab: 'campus.profileTab',
  /** Friends tab to open next, read once then consumed (spec §2.2). */
  friendsTab: 'campus.friendsTab',
  /** Where the signed-up user is in onboarding (reload resumes there). */
  onboarding: 'campus.onboarding',
  /** Signup handoff (spec §3): what the signup form collected, for profile setup. */
  signup: 'campus.signup',
  /** Profile like counts by user id (spec §3 local storage extras). */
  profileLikes: 'campus.profileLikes',
  /** Profile like flags keyed by `${currentUserId}:${targetId}` (spec §3 local storage extras). */
  userProfileLikes: 'campus.userProfileLikes',
  /** Theme choice (features/theme owns it). */
  theme: 'campus.theme',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** The keys kept per tab (sessionStorage). */
export const SESSION_KEYS: ReadonlySet<StorageKey> = new Set<StorageKey>([
  STORAGE_KEYS.page,
  STORAGE_KEYS.previousPage,
  STORAGE_KEYS.viewedUserId,
  STORAGE_KEYS.friendsTab,
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

/** Spec §4: logout and any 401 remove the token, the saved auth state and the current page. */
export function clearAuthStorage(): void {
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
