// Posts and comments as the client keeps them (docs/product.md §3 Post), normalized from
// whatever shape the server sends: author or user (either copied to the
// other), id or _id, likes as a list or a count, legacy single `media`.

import {
  idOf,
  isRecord,
  normalizeImage,
  normalizeMentions,
  normalizeUserSummary,
  num,
  str,
  type Mention,
  type UserSummary,
  normalizeVariants,
} from '../../api/models';
import type { ImageVariant } from '../../lib/srcset';

export interface PostImage {
  url: string;
  type: string;
  /** The original's size in pixels; 0 when unknown (posts from before sizes were sent). */
  width: number;
  height: number;
  /** The author's description for people who cannot see it; '' for none. */
  alt: string;
  /** Smaller copies, ascending by width, for srcset (issue 16). */
  variants: ImageVariant[];
}

/** The group a post belongs to (GROUPS_API: Post JSON gains `group`). */
export interface PostGroup {
  id: string;
  handle: string;
  name: string;
  visibility: string;
}

export interface Post {
  id: string;
  content: string;
  images: PostImage[];
  visibility: string;
  likesCount: number;
  isLiked: boolean;
  commentsCount: number;
  /** How many people reposted it (issue 27). */
  repostsCount: number;
  /** Whether this viewer bookmarked it (private to them) and reposted it. */
  saved: boolean;
  reposted: boolean;
  /**
   * Orders copies of the counts: the server moves it on with every commit
   * that changes one, so of two copies (a page, a like's answer, a socket
   * frame) the higher is the newer; a new post's is 0.
   */
  countsVersion: number;
  author: UserSummary;
  createdAt: string;
  /** When the text was last changed; '' if never (issue 16 #2: the "edited" marker). */
  editedAt: string;
  /** The group it was posted in; null for an ordinary post. */
  group: PostGroup | null;
  /** The people its text names by @handle (issue 27): they link to their profiles. */
  mentions: Mention[];
  /**
   * A repost entry (issue 27): author, content (the comment) and createdAt
   * are the repost's, and this is the original the card shows and acts on
   * (the store keeps it under its own id). null for a post of its own.
   */
  repostOf: Post | null;
}

export function normalizePostGroup(v: unknown): PostGroup | null {
  if (!isRecord(v)) return null;
  const g = { id: idOf(v), handle: str(v.handle), name: str(v.name), visibility: str(v.visibility) || 'public' };
  return g.id && g.handle ? g : null;
}

/**
 * Edits move updatedAt past createdAt (only a content change touches it on
 * the server); a second of slack absorbs a create whose two stamps differ.
 */
export function editedAtOf(createdAt: string, updatedAt: string): string {
  const c = Date.parse(createdAt);
  const u = Date.parse(updatedAt);
  return Number.isFinite(c) && Number.isFinite(u) && u - c > 1000 ? updatedAt : '';
}

export interface Comment {
  id: string;
  postId: string;
  content: string;
  user: UserSummary;
  createdAt: string;
  /** The people its text names by @handle, as a post's. */
  mentions: Mention[];
}

export function normalizeImages(v: unknown, legacyMedia?: unknown): PostImage[] {
  const list = Array.isArray(v) ? v : [];
  const images = list
    .map((x) => {
      const r: Record<string, unknown> = isRecord(x) ? x : { url: x };
      return {
        url: normalizeImage(r).url,
        type: str(r.type) || 'image',
        width: num(r.width),
        height: num(r.height),
        alt: str(r.alt),
        variants: normalizeVariants(r.variants),
      };
    })
    .filter((i) => i.url !== '');
  if (images.length === 0 && legacyMedia !== undefined) {
    const m = normalizeImage(legacyMedia);
    if (m.url) images.push({ url: m.url, type: 'image', width: 0, height: 0, alt: '', variants: [] });
  }
  return images;
}

export function normalizePost(v: unknown): Post {
  const r = isRecord(v) ? v : {};
  // docs/product.md §3: user is copied from author if missing (and we read either).
  const authorRaw = isRecord(r.author) ? r.author : isRecord(r.user) ? r.user : {};
  const author = normalizeUserSummary(authorRaw);
  if (!author.id) author.id = str(r.userId);
  const likesCount = typeof r.likesCount === 'number' ? num(r.likesCount) : Array.isArray(r.likes) ? r.likes.length : 0;
  const commentsCount =
    typeof r.commentsCount === 'number' ? num(r.commentsCount) : Array.isArray(r.comments) ? r.comments.length : 0;
  return {
    id: idOf(r),
    content: str(r.content),
    images: normalizeImages(r.images, r.media),
    visibility: str(r.visibility) || 'public',
    likesCount: Math.max(0, likesCount),
    isLiked: r.isLiked === true,
    commentsCount: Math.max(0, commentsCount),
    repostsCount: Math.max(0, num(r.repostsCount)),
    saved: r.saved === true,
    reposted: r.reposted === true,
    countsVersion: typeof r.countsVersion === 'number' ? Math.max(0, num(r.countsVersion)) : 0,
    author,
    createdAt: str(r.createdAt),
    editedAt: str(r.editedAt) || editedAtOf(str(r.createdAt), str(r.updatedAt)),
    group: normalizePostGroup(r.group),
    mentions: normalizeMentions(r.mentions),
    repostOf: isRecord(r.repostOf) ? normalizePost(r.repostOf) : null,
  };
}

export function normalizeComment(v: unknown, postId = ''): Comment {
  const r = isRecord(v) ? v : {};
  return {
    id: idOf(r),
    postId: str(r.postId) || postId,
    content: str(r.content),
    user: normalizeUserSummary(isRecord(r.user) ? r.user : r.author),
    createdAt: str(r.createdAt),
    mentions: normalizeMentions(r.mentions),
  };
}

/** The shareable link of a post (docs/product.md §2.1). */
export function postLink(postId: string, origin: string = window.location.origin): string {
  return `${origin}/post/${encodeURIComponent(postId)}`;
}
