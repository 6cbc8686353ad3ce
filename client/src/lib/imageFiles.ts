// Checks for a single picked picture (avatar, cover): images only (docs/product.md
// §2.7, §2.14), of a type the server accepts, at most 5 MB (docs/product.md §9).

import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES } from '../constants';

export const MSG_IMAGES_ONLY = 'Please select an image file (JPEG, PNG, GIF or WebP).';
export const MSG_IMAGE_TOO_LARGE = 'File size must be less than 5MB.';

export function checkImageFile(file: File): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return MSG_IMAGES_ONLY;
  if (file.size > MAX_IMAGE_BYTES) return MSG_IMAGE_TOO_LARGE;
  return null;
}

export const IMAGE_ACCEPT = ACCEPTED_IMAGE_TYPES.join(',');
