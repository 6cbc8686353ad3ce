import { beforeEach, describe, expect, it } from 'vitest';
import { OFFLINE_MAX_CHARS, OFFLINE_PROFILES, readOffline, saveOffline, savedAtLabel, signedInUserId } from './offlineCache';
import { clearAuthStorage, STORAGE_KEYS } from './storage';

beforeEach(() => localStorage.clear());

describe('what is kept for reading offline', () => {
  it('keeps each page per user, never shows one user what another read, and goes at sign-out', () => {
    saveOffline('u1', 'feed', [{ id: 'p1' }], new Date('2026-11-27T10:00:00Z'));
    expect(readOffline('u1', 'feed')).toEqual({ savedAt: '2026-11-27T10:00:00.000Z', data: [{ id: 'p1' }] });
    expect(readOffline('u2', 'feed')).toBeNull();
    expect(readOffline('', 'feed')).toBeNull();
    expect(readOffline('u1', 'notifications')).toBeNull();
    // Another user signs in on this device: the first one's pages are replaced, not merged.
    saveOffline('u2', 'notifications', [{ id: 'n1' }]);
    expect(readOffline('u1', 'feed')).toBeNull();
    expect(readOffline('u2', 'notifications')?.data).toEqual([{ id: 'n1' }]);
    clearAuthStorage();
    expect(localStorage.getItem(STORAGE_KEYS.offline)).toBeNull();
    expect(readOffline('u2', 'notifications')).toBeNull();
  });

  it('keeps only the most recently read profiles', () => {
    for (let i = 0; i < OFFLINE_PROFILES + 2; i++) saveOffline('u1', `profile:p${i}`, { i }, new Date(Date.UTC(2026, 10, 27, 10, i)));
    expect(readOffline('u1', 'profile:p0')).toBeNull();
    expect(readOffline('u1', 'profile:p1')).toBeNull();
    expect(readOffline('u1', `profile:p${OFFLINE_PROFILES + 1}`)?.data).toEqual({ i: OFFLINE_PROFILES + 1 });
    expect(readOffline('u1', 'profile:p2')?.data).toEqual({ i: 2 });
  });

  it('skips a page too big to keep, and reads garbage as nothing', () => {
    saveOffline('u1', 'feed', 'x'.repeat(OFFLINE_MAX_CHARS + 1));
    expect(readOffline('u1', 'feed')).toBeNull();
    localStorage.setItem(STORAGE_KEYS.offline, '{not json');
    expect(readOffline('u1', 'feed')).toBeNull();
    localStorage.setItem(STORAGE_KEYS.offline, JSON.stringify({ v: 1, userId: 'u1', entries: { feed: { data: [] } } }));
    expect(readOffline('u1', 'feed')).toBeNull(); // no savedAt
  });

  it('knows whose pages they are from the saved session', () => {
    expect(signedInUserId()).toBe('');
    localStorage.setItem(STORAGE_KEYS.auth, JSON.stringify({ user: { id: 'u7', name: 'Asha' } }));
    expect(signedInUserId()).toBe('u7');
    localStorage.setItem(STORAGE_KEYS.auth, JSON.stringify({ user: { id: 7 } }));
    expect(signedInUserId()).toBe('');
  });

  it('says when a page was read: the time today, the date before', () => {
    const now = new Date(2026, 10, 27, 18, 0);
    expect(savedAtLabel(new Date(2026, 10, 27, 15, 5).toISOString(), now)).toBe('3:05 PM');
    expect(savedAtLabel(new Date(2026, 10, 26, 9, 30).toISOString(), now)).toBe('Nov 26, 9:30 AM');
    expect(savedAtLabel('nonsense', now)).toBe('');
  });
});
