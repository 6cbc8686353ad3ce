// The profile calls (docs/product.md §7.3; both families are served over the same data,
// docs/product.md §7, and the profile screen uses /profile). Uploads reuse onboarding's.

import { apiGet, apiPatch, apiPost } from '../../api/http';
import { isRecord, num } from '../../api/models';
import { normalizeProfile, type Profile, type ProfilePayload } from './model';

export { uploadAvatar, uploadCover } from '../onboarding/profileApi';

/** GET /api/profile/me, or /api/profile/{id} for someone else. */
export async function fetchProfile(userId: string | null, signal?: AbortSignal): Promise<Profile> {
  const path = userId ? `/profile/${encodeURIComponent(userId)}` : '/profile/me';
  const data = await apiGet<unknown>(path, { signal });
  const p = normalizeProfile(isRecord(data) && isRecord(data.profile) ? data.profile : data);
  if (!p.id) throw new Error('Profile not found');
  return p;
}

/** PATCH /api/profile: answers the updated profile. */
export async function updateProfile(payload: ProfilePayload): Promise<Profile> {
  const data = await apiPatch<unknown>('/profile', payload);
  return normalizeProfile(isRecord(data) && isRecord(data.profile) ? data.profile : data);
}

export interface ProfileLikeResult {
  isLiked: boolean;
  likesCount: number;
}

/** POST /api/profile/{id}/like or /unlike (docs/product.md §4 Profile like). */
export async function setProfileLike(userId: string, like: boolean): Promise<ProfileLikeResult | null> {
  const data = await apiPost<unknown>(`/profile/${encodeURIComponent(userId)}/${like ? 'like' : 'unlike'}`);
  if (!isRecord(data) || typeof data.isLiked !== 'boolean') return null;
  return { isLiked: data.isLiked, likesCount: num(data.likesCount) };
}
