// Shapes of the server's entities as the client uses them, and tolerant
// normalizers (docs/product.md §3): ids may arrive as `id` or `_id`, an avatar may be a
// plain url string, a missing name reads 'User'. Screens only ever see the
// normalized forms.

import type { ImageVariant } from '../lib/srcset';

export type Role = 'student' | 'faculty';

export interface ImageRef {
  url: string;
  publicId?: string;
  /** The server's smallest copy (issue 16): what a small avatar loads; absent for images from before. */
  thumbUrl?: string;
  /** The server's smaller copies, ascending by width (issue 27: 96, 320, 720, 1280 px), for srcset. */
  variants?: ImageVariant[];
}

/** A user summary: what posts, comments and suggestions carry. */
export interface UserSummary {
  id: string;
  name: string;
  avatar: ImageRef;
  role: Role;
  universityId: string;
}

/** The signed-in user (GET /api/users/me, login, verify). */
export interface User extends UserSummary {
  /** What an @mention names them by (issue 27); '' from a server without handles. */
  handle: string;
  email: string;
  collegeId: string;
  bio: string;
  coverPhoto: ImageRef;
  course: string;
  batch: string;
  department: string;
  location: string;
  profileLikes: string[];
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
}

export function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** `id`, else `_id`, as a string ('' when neither). */
export function idOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!isRecord(v)) return '';
  return str(v.id) || str(v._id);
}

export function normalizeImage(v: unknown): ImageRef {
  if (typeof v === 'string') return { url: v };
  if (!isRecord(v)) return { url: '' };
  const img: ImageRef = { url: str(v.url) };
  const publicId = str(v.publicId);
  if (publicId) img.publicId = publicId;
  const thumbUrl = str(v.thumbUrl);
  if (thumbUrl && img.url) img.thumbUrl = thumbUrl;
  const variants = normalizeVariants(v.variants);
  if (variants.length > 0 && img.url) img.variants = variants;
  return img;
}

export function normalizeRole(v: unknown): Role {
  return v === 'faculty' ? 'faculty' : 'student';
}

export function normalizeUserSummary(v: unknown): UserSummary {
  const r = isRecord(v) ? v : {};
  return {
    id: idOf(r),
    name: str(r.name).trim() || 'User',
    avatar: normalizeImage(r.avatar),
    role: normalizeRole(r.role),
    universityId: str(r.universityId),
  };
}

export function normalizeUser(v: unknown): User {
  const r = isRecord(v) ? v : {};
  return {
    ...normalizeUserSummary(r),
    handle: str(r.handle),
    email: str(r.email),
    collegeId: str(r.collegeId),
    bio: str(r.bio),
    coverPhoto: normalizeImage(r.coverPhoto),
    course: str(r.course),
    batch: str(r.batch),
    department: str(r.department),
    location: str(r.location),
    profileLikes: Array.isArray(r.profileLikes) ? r.profileLikes.map(idOf).filter(Boolean) : [],
  };
}

/**
 * A person a post or comment names by @handle (issue 27): the server resolves
 * the handles when the text is stored and sends the ones that name someone.
 * An @name not among them names no one and stays text.
 */
export interface Mention {
  id: string;
  /** Lower-case; the text may have it in any case. */
  handle: string;
}

export function normalizeMentions(v: unknown): Mention[] {
  if (!Array.isArray(v)) return [];
  const out: Mention[] = [];
  for (const x of v) {
    if (!isRecord(x)) continue;
    const m = { id: idOf(x), handle: str(x.handle).toLowerCase() };
    if (m.id && m.handle) out.push(m);
  }
  return out;
}

/** docs/product.md §4: a saved or received user must have a string id. */
export function hasStringId(v: unknown): boolean {
  return isRecord(v) && ((typeof v.id === 'string' && v.id !== '') || (typeof v._id === 'string' && v._id !== ''));
}

/** The line under a name: 'Faculty' for faculty, else the university ID (fallback 'Student'). */
export function userSubtitle(u: Pick<UserSummary, 'role' | 'universityId'>): string {
  if (u.role === 'faculty') return 'Faculty';
  return u.universityId || 'Student';
}

/**
 * The server's smaller copies of an image ({url, width, height}), ascending by
 * width; entries without a url or a width are dropped. Here, not in
 * lib/srcset, because the main chunk needs it (avatars) and lib/srcset lives in
 * the lazy screens' shared chunk (vite.config.ts).
 */
export function normalizeVariants(v: unknown): ImageVariant[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && typeof (x as { url?: unknown }).url === 'string')
    .map((x) => ({ url: x.url as string, width: Number(x.width) || 0, height: Number(x.height) || 0 }))
    .filter((x) => x.url !== '' && x.width > 0)
    .sort((a, b) => a.width - b.width);
}
