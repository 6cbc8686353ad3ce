// The post, like and comment calls (docs/product.md §7.5).

import { apiDelete, apiGet, apiPost, apiPut, upload } from '../../api/http';
import { isRecord, str } from '../../api/models';
import { feedFirstPagePath, takePrefetched } from '../../api/prefetch';
import { COMMENTS_PAGE_SIZE, FEED_PAGE_SIZE } from '../../constants';
import { normalizeComment, normalizePost, type Comment, type Post } from './model';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function postsPage(data: unknown): Page<Post> {
  const r = isRecord(data) ? data : {};
  const list = Array.isArray(r.posts) ? r.posts : Array.isArray(data) ? data : [];
  return { items: list.map(normalizePost).filter((p) => p.id !== ''), nextCursor: str(r.nextCursor) || null };
}

export async function fetchFeed(cursor: string | null, limit = FEED_PAGE_SIZE, signal?: AbortSignal): Promise<Page<Post>> {
  const path = `/posts/feed${query({ limit, cursor })}`;
  // The first page may already be on its way (main.tsx, api/prefetch.ts).
  const early = cursor === null && path === feedFirstPagePath(limit) ? takePrefetched(path) : undefined;
  return postsPage(await (early ?? apiGet<unknown>(path, { signal })));
}

export async function fetchUserPosts(userId: string, cursor: string | null, limit = FEED_PAGE_SIZE): Promise<Page<Post>> {
  return postsPage(await apiGet<unknown>(`/posts/user/${encodeURIComponent(userId)}${query({ limit, cursor })}`));
}

/**
 * Why a post a moderator opened is hidden from everyone else (the server
 * sends it to moderators only, and only for such a post).
 */
export interface HiddenMarks {
  removed: boolean;
  authorSuspended: boolean;
}

export async function fetchPost(
  postId: string,
  signal?: AbortSignal,
): Promise<{ post: Post; comments: Comment[]; commentsCursor: string | null; moderation: HiddenMarks | null }> {
  const data = await apiGet<unknown>(`/posts/${encodeURIComponent(postId)}`, { signal });
  const r = isRecord(data) ? data : {};
  const post = normalizePost(r.post ?? data);
  const comments = Array.isArray(r.comments) ? r.comments.map((c) => normalizeComment(c, post.id)) : [];
  const m = isRecord(r.moderation) ? r.moderation : null;
  const moderation = m ? { removed: m.removed === true, authorSuspended: m.authorSuspended === true } : null;
  return { post, comments, commentsCursor: str(r.nextCursor) || null, moderation };
}

export interface NewPost {
  content: string;
  images: File[];
  /** Posts into this group (members only, GROUPS_API). */
  groupId?: string;
  /** One description per image, in order ('' for none). */
  alts?: string[];
}

/**
 * docs/product.md §7.5: JSON {content, visibility} without images, multipart (content,
 * visibility, images ×n) with them, reporting upload progress, 60 s timeout.
 */
export async function createPost(p: NewPost, onProgress?: (percent: number) => void): Promise<Post> {
  let data: unknown;
  if (p.images.length === 0) {
    data = await apiPost<unknown>('/posts', { content: p.content, visibility: 'public', ...(p.groupId ? { groupId: p.groupId } : {}) });
  } else {
    const form = new FormData();
    form.append('content', p.content);
    form.append('visibility', 'public');
    if (p.groupId) form.append('groupId', p.groupId);
    for (const f of p.images) form.append('images', f, f.name);
    // Issue 16: one imageAlts per image, in the images' order.
    p.images.forEach((_, i) => form.append('imageAlts', p.alts?.[i]?.trim() ?? ''));
    data = await upload<unknown>('/posts', form, { onProgress });
  }
  const post = normalizePost(isRecord(data) ? (data.post ?? data) : data);
  if (!post.id) throw new Error('Invalid response from server');
  return post;
}

/**
 * PUT /posts/{id}: new text for the caller's own post (its images stay) and,
 * when given, new descriptions of its images in order.
 */
export async function editPost(postId: string, content: string, alts?: string[]): Promise<Post> {
  const body: { content: string; imageAlts?: string[] } = { content };
  if (alts) body.imageAlts = alts.map((a) => a.trim());
  const data = await apiPut<unknown>(`/posts/${encodeURIComponent(postId)}`, body);
  const post = normalizePost(isRecord(data) ? (data.post ?? data) : data);
  if (!post.id) throw new Error('Invalid response from server');
  return post;
}

export async function deletePost(postId: string): Promise<void> {
  await apiDelete<unknown>(`/posts/${encodeURIComponent(postId)}`);
}

export interface LikeResult {
  isLiked: boolean;
  likesCount: number;
  /** The post's counts version with likesCount (undefined: not said). */
  countsVersion?: number;
}

/** Like (POST) or unlike (DELETE): explicit, so a repeated call cannot flip it back. */
export async function setLike(postId: string, liked: boolean): Promise<LikeResult> {
  const path = `/posts/${encodeURIComponent(postId)}/like`;
  const data = liked ? await apiPost<unknown>(path) : await apiDelete<unknown>(path);
  const r = isRecord(data) ? data : {};
  if (typeof r.isLiked !== 'boolean' || typeof r.likesCount !== 'number') throw new Error('Invalid response from server');
  return { isLiked: r.isLiked, likesCount: r.likesCount, countsVersion: versionOf(r) };
}

/** The counts version an answer carries, if it says. */
function versionOf(data: unknown): number | undefined {
  return isRecord(data) && typeof data.countsVersion === 'number' ? data.countsVersion : undefined;
}

export async function fetchComments(postId: string, cursor: string | null, limit = COMMENTS_PAGE_SIZE): Promise<Page<Comment>> {
  const data = await apiGet<unknown>(`/posts/${encodeURIComponent(postId)}/comments${query({ limit, cursor })}`);
  const r = isRecord(data) ? data : {};
  const list = Array.isArray(r.comments) ? r.comments : [];
  return {
    items: list.map((c) => normalizeComment(c, postId)).filter((c) => c.id !== ''),
    nextCursor: str(r.nextCursor) || null,
  };
}

/** The count after a comment change, when the server says (it knows about everyone's comments). */
function countOf(data: unknown): number | undefined {
  return isRecord(data) && typeof data.commentsCount === 'number' ? data.commentsCount : undefined;
}

export async function addComment(
  postId: string,
  content: string,
): Promise<{ comment: Comment; commentsCount?: number; countsVersion?: number }> {
  const data = await apiPost<unknown>(`/posts/${encodeURIComponent(postId)}/comments`, { content });
  const comment = normalizeComment(isRecord(data) ? (data.comment ?? data) : data, postId);
  if (!comment.id) throw new Error('Invalid response from server');
  return { comment, commentsCount: countOf(data), countsVersion: versionOf(data) };
}

export async function deleteComment(postId: string, commentId: string): Promise<{ commentsCount?: number; countsVersion?: number }> {
  const data = await apiDelete<unknown>(`/posts/${encodeURIComponent(postId)}/comments/${encodeURIComponent(commentId)}`);
  return { commentsCount: countOf(data), countsVersion: versionOf(data) };
}

/** Issue 27: PUT (save) or DELETE (unsave) the bookmark; answers the state the server kept. */
export async function setBookmark(postId: string, saved: boolean): Promise<boolean> {
  const path = `/posts/${encodeURIComponent(postId)}/bookmark`;
  const data = saved ? await apiPut<unknown>(path) : await apiDelete<unknown>(path);
  const r = isRecord(data) ? data : {};
  if (typeof r.saved !== 'boolean') throw new Error('Invalid response from server');
  return r.saved;
}

export interface RepostAnswer {
  reposted: boolean;
  repostsCount: number;
  countsVersion?: number;
  /** The viewer's repost entry (absent after undoing). */
  entry: Post | null;
}

/** A repost call's answer (the repost dialog's call is in its own chunk). */
export function repostAnswer(data: unknown): RepostAnswer {
  const r = isRecord(data) ? data : {};
  if (typeof r.reposted !== 'boolean' || typeof r.repostsCount !== 'number') throw new Error('Invalid response from server');
  const entry = isRecord(r.repost) ? normalizePost(r.repost) : null;
  return { reposted: r.reposted, repostsCount: r.repostsCount, countsVersion: versionOf(r), entry: entry?.id ? entry : null };
}

export async function unrepost(postId: string): Promise<RepostAnswer> {
  return repostAnswer(await apiDelete<unknown>(`/posts/${encodeURIComponent(postId)}/repost`));
}
