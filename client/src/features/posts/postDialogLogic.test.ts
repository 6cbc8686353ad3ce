import { describe, expect, it, vi } from 'vitest';
import { MSG_NETWORK, MSG_OFFLINE, MSG_TIMEOUT } from '../../constants';
import { ApiError } from '../../api/http';
import {
  checkNewImages,
  isRetryable,
  MSG_CREATE_FAILED,
  MSG_EMPTY_POST,
  MSG_FILE_TOO_LARGE,
  MSG_NOT_IMAGE,
  MSG_TOO_MANY_IMAGES,
  MSG_UPLOAD_GAVE_UP,
  retryingMessage,
  submitWithRetries,
  validatePostDraft,
} from './postDialogLogic';

function file(name: string, type: string, size = 1000): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('post dialog messages (docs/product.md §5, §8.3)', () => {
  it('are worded as the spec has them', () => {
    expect(MSG_EMPTY_POST).toBe('Please add some content or media to your post.');
    expect(MSG_NOT_IMAGE).toBe('Please select only image files. Videos are not supported.');
    expect(MSG_FILE_TOO_LARGE).toBe('File size must be less than 5MB.');
    expect(MSG_TOO_MANY_IMAGES).toBe('You can upload a maximum of 3 images.');
    expect(retryingMessage(2)).toBe('Upload failed. Retrying... (2/3)');
    expect(MSG_UPLOAD_GAVE_UP).toBe('Failed to upload post after multiple attempts. Please try again later.');
    expect(MSG_CREATE_FAILED).toBe('Failed to create post. Please try again.');
  });

  it('needs text or an image', () => {
    expect(validatePostDraft('   ', 0)).toBe(MSG_EMPTY_POST);
    expect(validatePostDraft('', 1)).toBeNull();
    expect(validatePostDraft('hi', 0)).toBeNull();
    expect(validatePostDraft('x'.repeat(2001), 0)).not.toBeNull();
  });
});

describe('checkNewImages', () => {
  it('accepts jpeg, png, gif and webp up to 5 MB', () => {
    const files = [file('a.jpg', 'image/jpeg'), file('b.png', 'image/png'), file('c.webp', 'image/webp')];
    expect(checkNewImages(0, files)).toEqual({ accepted: files, error: null });
    expect(checkNewImages(0, [file('g.gif', 'image/gif', 5 * 1024 * 1024)]).error).toBeNull();
  });

  it('refuses videos and other files', () => {
    const r = checkNewImages(0, [file('v.mp4', 'video/mp4'), file('ok.png', 'image/png')]);
    expect(r.error).toBe(MSG_NOT_IMAGE);
    expect(r.accepted.map((f) => f.name)).toEqual(['ok.png']);
    expect(checkNewImages(0, [file('doc.pdf', 'application/pdf')]).error).toBe(MSG_NOT_IMAGE);
  });

  it('refuses files over 5 MB', () => {
    const r = checkNewImages(0, [file('big.jpg', 'image/jpeg', 5 * 1024 * 1024 + 1)]);
    expect(r).toEqual({ accepted: [], error: MSG_FILE_TOO_LARGE });
  });

  it('stops at 3 images in all', () => {
    const r = checkNewImages(2, [file('a.jpg', 'image/jpeg'), file('b.jpg', 'image/jpeg')]);
    expect(r.accepted.map((f) => f.name)).toEqual(['a.jpg']);
    expect(r.error).toBe(MSG_TOO_MANY_IMAGES);
    expect(checkNewImages(3, [file('a.jpg', 'image/jpeg')])).toEqual({ accepted: [], error: MSG_TOO_MANY_IMAGES });
  });
});

describe('submitWithRetries (docs/product.md §8.3)', () => {
  const netErr = () => new ApiError('network', 0, MSG_NETWORK);

  it('retries network errors 3 times, 2 s apart, announcing each', async () => {
    const attempt = vi.fn(async () => {
      throw netErr();
    });
    const notes: string[] = [];
    const sleeps: number[] = [];
    await expect(
      submitWithRetries(attempt, {
        onRetry: (n) => notes.push(retryingMessage(n)),
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        isOnline: () => true,
      }),
    ).rejects.toThrow(MSG_UPLOAD_GAVE_UP);
    expect(attempt).toHaveBeenCalledTimes(4);
    expect(notes).toEqual(['Upload failed. Retrying... (1/3)', 'Upload failed. Retrying... (2/3)', 'Upload failed. Retrying... (3/3)']);
    expect(sleeps).toEqual([2000, 2000, 2000]);
  });

  it('succeeds on a retry', async () => {
    let n = 0;
    const attempt = vi.fn(async () => {
      n += 1;
      if (n < 3) throw new ApiError('timeout', 0, MSG_TIMEOUT);
      return 'ok';
    });
    await expect(submitWithRetries(attempt, { sleep: async () => {}, isOnline: () => true })).resolves.toBe('ok');
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('treats a message containing timeout as retryable', () => {
    expect(isRetryable(new Error('upload timeout'))).toBe(true);
    expect(isRetryable(new ApiError('http', 413, 'File too large'))).toBe(false);
  });

  it('says offline without retrying', async () => {
    const attempt = vi.fn(async () => 'never');
    await expect(submitWithRetries(attempt, { isOnline: () => false })).rejects.toThrow(MSG_OFFLINE);
    expect(attempt).not.toHaveBeenCalled();
  });

  it('shows other errors as they are, else the generic message', async () => {
    await expect(
      submitWithRetries(async () => {
        throw new ApiError('http', 413, 'File too large');
      }, { isOnline: () => true }),
    ).rejects.toThrow('File too large');
    await expect(
      submitWithRetries(async () => {
        throw new Error('');
      }, { isOnline: () => true }),
    ).rejects.toThrow(MSG_CREATE_FAILED);
  });
});
