// The profile as the profile screen uses it (docs/product.md §3 Profile, §2.14), from
// GET /api/profile/{id} (or /me): the user's fields plus education, skills,
// achievements, interests and the counts. Tolerant of missing pieces.

import { isRecord, normalizeUser, num, str, type User } from '../../api/models';

export interface Education {
  degree: string;
  institution: string;
  years: string;
}

export interface Skill {
  name: string;
  /** 0–100 (docs/product.md §3: default 50). */
  proficiency: number;
}

export interface Achievement {
  title: string;
  description: string;
  year: string;
}

export interface Profile extends User {
  education: Education;
  skills: Skill[];
  achievements: Achievement[];
  interests: string[];
  likesCount: number;
  isLikedByViewer: boolean;
  postsCount: number;
  friendsCount: number;
  /** Only a moderator sees a suspended account's profile (issue 31): it is marked. */
  suspended?: boolean;
}

export const DEFAULT_SKILL_PROFICIENCY = 50;
/** docs/product.md §9: the Year tile without a usable university ID. */
export const FALLBACK_YEAR = '2024';

/** docs/product.md §5: skill proficiency coerced to a number, kept within 0–100 (default 50). */
export function coerceProficiency(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return DEFAULT_SKILL_PROFICIENCY;
  return Math.max(0, Math.min(100, Math.round(n)));
}

function normalizeEducation(v: unknown): Education {
  const r = isRecord(v) ? v : {};
  return { degree: str(r.degree), institution: str(r.institution), years: str(r.years) };
}

export function normalizeProfile(v: unknown): Profile {
  const r = isRecord(v) ? v : {};
  const user = normalizeUser(r);
  const profileLikes = user.profileLikes;
  return {
    ...user,
    education: normalizeEducation(r.education),
    skills: (Array.isArray(r.skills) ? r.skills : [])
      .filter(isRecord)
      .map((s) => ({ name: str(s.name), proficiency: coerceProficiency(s.proficiency) }))
      .filter((s) => s.name.trim() !== ''),
    achievements: (Array.isArray(r.achievements) ? r.achievements : [])
      .filter(isRecord)
      .map((a) => ({ title: str(a.title), description: str(a.description), year: str(a.year) }))
      .filter((a) => a.title.trim() !== '' || a.description.trim() !== ''),
    interests: (Array.isArray(r.interests) ? r.interests : []).map((x) => str(x).trim()).filter(Boolean),
    likesCount: typeof r.likesCount === 'number' ? Math.max(0, num(r.likesCount)) : profileLikes.length,
    isLikedByViewer: r.isLikedByViewer === true,
    postsCount: Math.max(0, num(r.postsCount)),
    friendsCount: Math.max(0, num(r.friendsCount)),
    suspended: r.suspended === true,
  };
}

/**
 * docs/product.md §4 Profile like: the initial count and flag come from the profile's
 * profileLikes (the ids of the users who liked it); the server's own count
 * and flag stand in when the list is missing.
 */
export function initialProfileLike(p: Pick<Profile, 'profileLikes' | 'likesCount' | 'isLikedByViewer'>, viewerId: string | undefined) {
  return {
    count: p.profileLikes.length || p.likesCount,
    liked: (!!viewerId && p.profileLikes.includes(viewerId)) || p.isLikedByViewer,
  };
}

/**
 * docs/product.md §2.14: the Year tile is '20' followed by the third slash-separated
 * part of the university ID ('BWU/BCA/20/123' → '2020'), default 2024. A third
 * part that already is a four-digit year is shown as it is.
 */
export function profileYear(universityId: string | undefined | null): string {
  const part = (universityId ?? '').split('/')[2]?.trim() ?? '';
  if (!/^\d+$/.test(part)) return FALLBACK_YEAR;
  if (part.length === 4) return part;
  return `20${part}`;
}

/** 'student' → 'Student' (docs/product.md §2.14: role capitalised). */
export function capitalize(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** docs/product.md §5 Profile edit: interests split on commas, trimmed, empties dropped. */
export function parseInterests(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The editable draft of the Edit Profile modal (docs/product.md §4 Profile edit: copied from the profile). */
export interface ProfileDraft {
  name: string;
  bio: string;
  location: string;
  education: Education;
  skills: Skill[];
  achievements: Achievement[];
  /** Comma-separated, as typed. */
  interests: string;
}

export function draftFromProfile(p: Profile): ProfileDraft {
  return {
    name: p.name,
    bio: p.bio,
    location: p.location,
    education: { ...p.education },
    skills: p.skills.map((s) => ({ ...s })),
    achievements: p.achievements.map((a) => ({ ...a })),
    interests: p.interests.join(', '),
  };
}

/** What PATCH /api/profile receives for a draft. Blank skills and achievements are dropped. */
export function draftToPayload(d: ProfileDraft) {
  return {
    name: d.name.trim(),
    bio: d.bio.trim(),
    location: d.location.trim(),
    education: { degree: d.education.degree.trim(), institution: d.education.institution.trim(), years: d.education.years.trim() },
    skills: d.skills
      .map((s) => ({ name: s.name.trim(), proficiency: coerceProficiency(s.proficiency) }))
      .filter((s) => s.name !== ''),
    achievements: d.achievements
      .map((a) => ({ title: a.title.trim(), description: a.description.trim(), year: a.year.trim() }))
      .filter((a) => a.title !== '' || a.description !== '' || a.year !== ''),
    interests: parseInterests(d.interests),
  };
}

export type ProfilePayload = ReturnType<typeof draftToPayload>;

