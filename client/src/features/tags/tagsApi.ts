// A tag's page and what is trending (issue 27 item 2): GET /api/tags/{tag},
// GET /api/tags/{tag}/posts?sort=new|top&cursor=&limit=, GET /api/trending.
// The server lists a tag's posts as it lists the feed (blocks, mutes,
// groups, removals, suspensions) and filters trending for the reader.

import { apiGet } from '../../api/http';
import { isRecord, num, str } from '../../api/models';
import { FEED_PAGE_SIZE } from '../../constants';
import { normalizePost, type Post } from '../posts/model';
import { postsPage, query, type Page } from '../posts/postsApi';

export type TagSort = 'new' | 'top';

/** A tag's header: how many posts the reader may see ("12 posts", "1,000+ posts"). */
export interface TagInfo {
  name: string;
  postsCount: number;
  postsLabel: string;
}

export interface TrendingTag {
  tag: string;
  people: number;
  /** "12 people posting". */
  peopleLabel: string;
}

export interface Trending {
  tags: TrendingTag[];
  posts: Post[];
}

const base = (tag: string) => `/tags/${encodeURIComponent(tag)}`;

export async function fetchTag(tag: string, signal?: AbortSignal): Promise<TagInfo> {
  const data = await apiGet<unknown>(base(tag), { signal });
  const t = isRecord(data) && isRecord(data.tag) ? data.tag : {};
  return { name: str(t.name, tag), postsCount: num(t.postsCount), postsLabel: str(t.postsLabel) };
}

export async function fetchTagPosts(tag: string, sort: TagSort, cursor: string | null, limit = FEED_PAGE_SIZE, signal?: AbortSignal): Promise<Page<Post>> {
  return postsPage(await apiGet<unknown>(`${base(tag)}/posts${query({ sort, limit, cursor })}`, { signal }));
}

export function normalizeTrending(data: unknown): Trending {
  const r = isRecord(data) ? data : {};
  const tags: TrendingTag[] = [];
  for (const t of Array.isArray(r.tags) ? r.tags : []) {
    if (!isRecord(t) || !str(t.tag)) continue;
    tags.push({ tag: str(t.tag), people: num(t.people), peopleLabel: str(t.peopleLabel) });
  }
  const posts = (Array.isArray(r.posts) ? r.posts : []).map(normalizePost).filter((p) => p.id !== '');
  return { tags, posts };
}

export async function fetchTrending(signal?: AbortSignal): Promise<Trending> {
  return normalizeTrending(await apiGet<unknown>('/trending', { signal }));
}
