// Profile calls used by onboarding (docs/product.md §7.3): picture and cover uploads
// (multipart, with progress) and the profile setup call.

import { apiPost, upload } from '../../api/http';
import { hasStringId, isRecord, normalizeImage, normalizeUser, str, type ImageRef, type Role, type User } from '../../api/models';

function imageFrom(data: unknown, key: string): ImageRef {
  const v = isRecord(data) ? data[key] : undefined;
  const img = normalizeImage(v ?? (isRecord(data) ? data.coverPhotoUrl : undefined));
  if (!img.url) throw new Error('Invalid response from server');
  return img;
}

/** POST /api/profile/avatar, field `avatar` → data.avatar {url, publicId}. */
export async function uploadAvatar(file: File, onProgress?: (p: number) => void): Promise<ImageRef> {
  const form = new FormData();
  form.append('avatar', file, file.name);
  return imageFrom(await upload<unknown>('/profile/avatar', form, { onProgress }), 'avatar');
}

/** POST /api/profile/cover, field `coverPhoto` → data.coverPhoto {url, publicId} (or coverPhotoUrl). */
export async function uploadCover(file: File, onProgress?: (p: number) => void): Promise<ImageRef> {
  const form = new FormData();
  form.append('coverPhoto', file, file.name);
  return imageFrom(await upload<unknown>('/profile/cover', form, { onProgress }), 'coverPhoto');
}

export interface ProfileSetupPayload {
  name: string;
  role: Role;
  bio?: string;
  avatar?: ImageRef;
  coverPhoto?: ImageRef;
}

export interface ProfileSetupResult {
  name: string;
  bio: string;
  avatar: ImageRef;
  coverPhoto: ImageRef;
  /** The whole updated user, when the server sends it. */
  user?: User;
}

/** POST /api/profile/setup {name, role, bio, avatar, coverPhoto}. Pictures not chosen are left out. */
export async function setupProfile(p: ProfileSetupPayload): Promise<ProfileSetupResult> {
  const data = await apiPost<unknown>('/profile/setup', p);
  const r = isRecord(data) ? data : {};
  const result: ProfileSetupResult = {
    name: str(r.name) || p.name,
    bio: typeof r.bio === 'string' ? r.bio : (p.bio ?? ''),
    avatar: r.avatar !== undefined ? normalizeImage(r.avatar) : (p.avatar ?? { url: '' }),
    coverPhoto: r.coverPhoto !== undefined ? normalizeImage(r.coverPhoto) : (p.coverPhoto ?? { url: '' }),
  };
  if (hasStringId(r.user)) result.user = normalizeUser(r.user);
  return result;
}
