// GET /api/users/suggest?q=&limit= (issue 27): the people the signed-in user
// may mention whose handle or name starts with q — friends first, then their
// batch, course and department, then everyone else. Blocked people never.

import { apiGet } from '../../api/http';
import { idOf, isRecord, normalizeImage, normalizeRole, str, type ImageRef, type Role } from '../../api/models';

/** How a suggested person relates to the one typing ('' for no relation). */
export type Relation = 'friend' | 'batch' | 'course' | 'department' | '';

export interface Suggestion {
  id: string;
  name: string;
  handle: string;
  avatar: ImageRef;
  role: Role;
  universityId: string;
  relation: Relation;
}

/** People one keystroke asks for. */
export const SUGGEST_LIMIT = 8;

function relationOf(v: unknown): Relation {
  return v === 'friend' || v === 'batch' || v === 'course' || v === 'department' ? v : '';
}

export function normalizeSuggestions(data: unknown): Suggestion[] {
  const list = isRecord(data) && Array.isArray(data.users) ? data.users : [];
  const out: Suggestion[] = [];
  for (const u of list) {
    if (!isRecord(u)) continue;
    const s: Suggestion = {
      id: idOf(u),
      name: str(u.name).trim() || 'User',
      handle: str(u.handle).toLowerCase(),
      avatar: normalizeImage(u.avatar),
      role: normalizeRole(u.role),
      universityId: str(u.universityId),
      relation: relationOf(u.relation),
    };
    if (s.id && s.handle) out.push(s);
  }
  return out;
}

export async function suggestPeople(q: string, signal?: AbortSignal): Promise<Suggestion[]> {
  const params = new URLSearchParams({ q, limit: String(SUGGEST_LIMIT) });
  return normalizeSuggestions(await apiGet<unknown>(`/users/suggest?${params.toString()}`, { signal }));
}

/** The line under a suggested name: how they relate, else who they are. */
export function suggestionLine(s: Suggestion): string {
  switch (s.relation) {
    case 'friend':
      return 'Friend';
    case 'batch':
      return 'Your batch';
    case 'course':
      return 'Your course';
    case 'department':
      return 'Your department';
  }
  return s.role === 'faculty' ? 'Faculty' : s.universityId || 'Student';
}
