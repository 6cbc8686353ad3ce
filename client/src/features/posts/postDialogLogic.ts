// The create-post dialog's rules (docs/product.md §2.13, §5 Post, §8.3), as pure
// functions: the dialog calls them and the tests pin the messages.

import { isApiError } from '../../api/http';
import {
  ACCEPTED_IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MAX_POST_IMAGES,
  MAX_POST_LENGTH,
  MSG_OFFLINE,
  POST_RETRIES,
  POST_RETRY_DELAY_MS,
} from '../../constants';

export const MSG_EMPTY_POST = 'Please add some content or media to your post.';
export const MSG_NOT_IMAGE = 'Please select only image files. Videos are not supported.';
/** Ours: an image the server would refuse (e.g. BMP, TIFF, HEIC); the spec names the accepted types only. */
export const MSG_UNSUPPORTED_IMAGE = 'Only JPEG, PNG, GIF and WebP images are supported.';
export const MSG_FILE_TOO_LARGE = 'File size must be less than 5MB.';
export const MSG_TOO_MANY_IMAGES = 'You can upload a maximum of 3 images.';
export const MSG_MAX_IMAGES_TOOLTIP = 'Maximum 3 images allowed';
export const MSG_UPLOAD_GAVE_UP = 'Failed to upload post after multiple attempts. Please try again later.';
export const MSG_CREATE_FAILED = 'Failed to create post. Please try again.';

export function retryingMessage(n: number): string {
  return `Upload failed. Retrying... (${n}/${POST_RETRIES})`;
}

export function isAcceptedImageType(type: string): boolean {
  return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type);
}

/**
 * Checks newly picked files against what is already attached: non-images,
 * unsupported types and files over 5 MB are refused; beyond `max` images in
 * all (a post's 3 by default; a message passes its own limit and words) the
 * rest are dropped. Returns what to attach and the first problem.
 */
export function checkNewImages(
  existingCount: number,
  files: readonly File[],
  max: number = MAX_POST_IMAGES,
  tooMany: string = MSG_TOO_MANY_IMAGES,
): { accepted: File[]; error: string | null } {
  const accepted: File[] = [];
  let error: string | null = null;
  for (const f of files) {
    let problem: string | null = null;
    if (!f.type.startsWith('image/')) problem = MSG_NOT_IMAGE;
    else if (!isAcceptedImageType(f.type)) problem = MSG_UNSUPPORTED_IMAGE;
    else if (f.size > MAX_IMAGE_BYTES) problem = MSG_FILE_TOO_LARGE;
    else if (existingCount + accepted.length >= max) problem = tooMany;
    if (problem) error ??= problem;
    else accepted.push(f);
  }
  return { accepted, error };
}

/** docs/product.md §5: non-blank text or at least one image; at most 2000 characters. */
export function validatePostDraft(content: string, imageCount: number): string | null {
  if (content.trim() === '' && imageCount === 0) return MSG_EMPTY_POST;
  if (content.length > MAX_POST_LENGTH) return `Posts can be at most ${MAX_POST_LENGTH} characters.`;
  if (imageCount > MAX_POST_IMAGES) return MSG_TOO_MANY_IMAGES;
  return null;
}

/** docs/product.md §8.3: network errors and anything whose message mentions a timeout are retried. */
export function isRetryable(err: unknown): boolean {
  if (isApiError(err) && (err.kind === 'network' || err.kind === 'timeout')) return true;
  return err instanceof Error && /timeout|timed out/i.test(err.message);
}

export interface RetryOptions {
  /** Called before each retry with its number (1..3). */
  onRetry?: (n: number) => void;
  sleep?: (ms: number) => Promise<void>;
  isOnline?: () => boolean;
  retries?: number;
  delayMs?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const defaultOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/**
 * Runs `attempt`, retrying network failures up to 3 times 2 s apart (docs/product.md
 * §8.3). Rejects with an Error carrying the message to show: offline, the
 * give-up message, or the error's own message (else the generic one).
 */
export async function submitWithRetries<T>(attempt: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? POST_RETRIES;
  const delayMs = opts.delayMs ?? POST_RETRY_DELAY_MS;
  const sleep = opts.sleep ?? defaultSleep;
  const isOnline = opts.isOnline ?? defaultOnline;
  for (let n = 0; ; n++) {
    if (!isOnline()) throw new Error(MSG_OFFLINE);
    try {
      return await attempt();
    } catch (err) {
      if (!isOnline()) throw new Error(MSG_OFFLINE);
      if (!isRetryable(err)) {
        const msg = err instanceof Error && err.message.trim() !== '' ? err.message : MSG_CREATE_FAILED;
        throw new Error(msg);
      }
      if (n >= retries) throw new Error(MSG_UPLOAD_GAVE_UP);
      opts.onRetry?.(n + 1);
      await sleep(delayMs);
    }
  }
}
