// What the signed-in user last read, kept for reading offline (issue 27
// item 5): the feed's first page, the last few profiles and the
// notifications. One localStorage entry, tagged with the user it belongs to
// (another user's is never shown, and sign-out removes it: lib/storage's
// clearAuthStorage). Small by design: first pages only, so it stays far
// below the browser's quota; a write that does not fit is skipped.

import { readJSON, removeKey, STORAGE_KEYS, writeJSON } from './storage';

/** A kept page: when it was read, and what it held. */
export interface OfflineEntry<T> {
  savedAt: string;
  data: T;
}

interface Stored {
  v: 1;
  userId: string;
  entries: Record<string, OfflineEntry<unknown>>;
}

/**
 * The signed-in user's id, from the saved session (features/auth keeps
 * {user} there): whose pages these are. '' when signed out.
 */
export function signedInUserId(): string {
  const auth = readJSON(STORAGE_KEYS.auth);
  const user = typeof auth === 'object' && auth !== null ? (auth as { user?: unknown }).user : undefined;
  const id = typeof user === 'object' && user !== null ? (user as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '';
}

/** Profiles kept at most (the most recently read). */
export const OFFLINE_PROFILES = 5;
/** A kept page larger than this (in characters of JSON) is not kept. */
export const OFFLINE_MAX_CHARS = 400_000;

function load(userId: string): Stored {
  const raw = readJSON(STORAGE_KEYS.offline);
  if (
    typeof raw === 'object' &&
    raw !== null &&
    (raw as Stored).v === 1 &&
    (raw as Stored).userId === userId &&
    typeof (raw as Stored).entries === 'object' &&
    (raw as Stored).entries !== null
  ) {
    return raw as Stored;
  }
  return { v: 1, userId, entries: {} };
}

/** Keeps what `userId` just read under `name` ('feed', 'notifications', 'profile:<id>'). */
export function saveOffline(userId: string, name: string, data: unknown, now: Date = new Date()): void {
  if (!userId) return;
  let size = 0;
  try {
    size = JSON.stringify(data).length;
  } catch {
    return;
  }
  if (size > OFFLINE_MAX_CHARS) return;
  const s = load(userId);
  s.entries[name] = { savedAt: now.toISOString(), data };
  // Only the most recent profiles stay.
  const profiles = Object.keys(s.entries)
    .filter((k) => k.startsWith('profile:'))
    .sort((a, b) => Date.parse(s.entries[b]!.savedAt) - Date.parse(s.entries[a]!.savedAt));
  for (const k of profiles.slice(OFFLINE_PROFILES)) delete s.entries[k];
  writeJSON(STORAGE_KEYS.offline, s);
}

/** What `userId` last read under `name`, or null (nothing kept, or kept for someone else). */
export function readOffline<T>(userId: string, name: string): OfflineEntry<T> | null {
  if (!userId) return null;
  const e = load(userId).entries[name];
  if (!e || typeof e.savedAt !== 'string' || e.data === undefined) return null;
  return e as OfflineEntry<T>;
}

/** Forgets everything kept (sign-out does it with the rest of the account's storage). */
export function clearOffline(): void {
  removeKey(STORAGE_KEYS.offline);
}

/** "3:05 PM" today, else "Nov 27, 3:05 PM": when a kept page was read. */
export function savedAtLabel(savedAt: string, now: Date = new Date()): string {
  const d = new Date(savedAt);
  if (Number.isNaN(d.getTime())) return '';
  const time = d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  if (d.toDateString() === now.toDateString()) return time;
  return `${d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${time}`;
}
