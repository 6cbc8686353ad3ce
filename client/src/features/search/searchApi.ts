// GET /api/search?q=&limit= (docs/product.md §7.2): users, groups, tags, posts and
// comments, ordered by the server (exact title/subtitle matches first, then
// users, groups, tags, posts, comments). docs/product.md §8.5: a failed search
// yields empty results silently.

import { apiGet } from '../../api/http';
import { idOf, isRecord, normalizeImage, str } from '../../api/models';

export type SearchResultType = 'user' | 'group' | 'tag' | 'post' | 'comment';

export interface SearchResult {
  type: SearchResultType;
  id: string;
  title: string;
  subtitle: string;
  avatar: string;
  url: string;
}

export const SEARCH_LIMIT = 20;

function resultType(v: unknown): SearchResultType | null {
  return v === 'user' || v === 'group' || v === 'tag' || v === 'post' || v === 'comment' ? v : null;
}

export function normalizeResults(data: unknown): SearchResult[] {
  const list = isRecord(data) && Array.isArray(data.results) ? data.results : Array.isArray(data) ? data : [];
  const out: SearchResult[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const type = resultType(item.type);
    const id = idOf(item);
    if (!type || !id) continue;
    out.push({
      type,
      id,
      title: str(item.title),
      subtitle: str(item.subtitle),
      avatar: normalizeImage(item.avatar).url,
      url: str(item.url),
    });
  }
  return out;
}

/** Never rejects, except when aborted: failures are empty results (docs/product.md §8.5). */
export async function search(q: string, signal?: AbortSignal, limit = SEARCH_LIMIT): Promise<SearchResult[]> {
  const query = q.trim();
  if (query === '') return [];
  try {
    const params = new URLSearchParams({ q: query, limit: String(limit) });
    return normalizeResults(await apiGet<unknown>(`/search?${params.toString()}`, { signal }));
  } catch (err) {
    if (signal?.aborted) throw err;
    console.warn('Search failed', err);
    return [];
  }
}

/** docs/product.md §2.10: the label of a result's type. */
export function typeLabel(t: SearchResultType): string {
  return { user: 'User', group: 'Group', tag: 'Tag', post: 'Post', comment: 'Comment' }[t];
}

/**
 * Where a result leads: a user's profile, a group (its url `/g/{handle}`), a
 * tag's page (the id is the tag), or the post (a comment's url names its
 * post, `/post/{id}`; the id is the comment's own).
 */
export function resultTarget(
  r: SearchResult,
): { page: 'profile'; userId: string } | { page: 'post'; postId: string } | { page: 'group'; handle: string } | { page: 'tag'; tag: string } {
  if (r.type === 'user') return { page: 'profile', userId: r.id };
  if (r.type === 'tag') return { page: 'tag', tag: r.id };
  const g = r.type === 'group' ? /^\/g\/([^/?#]+)/.exec(r.url) : null;
  if (g) return { page: 'group', handle: decodeURIComponent(g[1]!) };
  const m = /\/post\/([^/?#]+)/.exec(r.url);
  const postId = m ? decodeURIComponent(m[1]!) : r.id;
  return { page: 'post', postId };
}
