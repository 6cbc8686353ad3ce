// The console's view state, kept while the tab is open: which section, and
// what was searched in each, so that coming back from a group or the
// moderation queue finds the console as it was left.

import { atom } from 'jotai';

export type AdminTab = 'users' | 'groups' | 'system';

export const ADMIN_TABS: { id: AdminTab; label: string }[] = [
  { id: 'users', label: 'Users' },
  { id: 'groups', label: 'Groups' },
  { id: 'system', label: 'System' },
];

export const adminTabAtom = atom<AdminTab>('users');
export const adminUserQueryAtom = atom('');
export const adminGroupQueryAtom = atom('');
/** The account open in the Users section, by id. */
export const adminSelectedUserAtom = atom<string | null>(null);
