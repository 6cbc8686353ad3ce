// Sharing a post (docs/product.md §4 Share): the device's share sheet with title
// 'Post by {author name}', the first 100 characters (with '...' if longer)
// and the link; if sharing is unavailable or fails, the link is copied.

import { SHARE_PREVIEW_CHARS } from '../../constants';
import { postLink, type Post } from './model';

export const MSG_COPIED = 'Copied!';
export const MSG_LINK_COPIED = 'Link copied to clipboard!';

export function sharePreview(content: string): string {
  return content.length > SHARE_PREVIEW_CHARS ? `${content.slice(0, SHARE_PREVIEW_CHARS)}...` : content;
}

export function shareData(post: Pick<Post, 'id' | 'content' | 'author'>, origin?: string): ShareData {
  return { title: `Post by ${post.author.name}`, text: sharePreview(post.content), url: postLink(post.id, origin) };
}

/** Copies text: the Clipboard API, else a hidden textarea and execCommand (plain http, old browsers). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the textarea
  }
  try {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.className = 'visually-hidden';
    document.body.appendChild(ta);
    ta.select();
    const ok = typeof document.execCommand === 'function' && document.execCommand('copy');
    ta.remove();
    return ok;
  } catch {
    return false;
  }
}

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

/**
 * Shares, or copies the link. A share sheet the user dismisses (AbortError)
 * counts as cancelled rather than failed: copying then would surprise them.
 */
export async function sharePost(post: Pick<Post, 'id' | 'content' | 'author'>, origin?: string): Promise<ShareOutcome> {
  const data = shareData(post, origin);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled';
      console.error('Share failed; copying the link instead', err);
    }
  }
  return (await copyText(data.url ?? '')) ? 'copied' : 'failed';
}
