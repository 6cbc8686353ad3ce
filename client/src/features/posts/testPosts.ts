import type { Post } from './model';

/** A post for tests, with overrides. */
export function makePost(over: Partial<Post> = {}): Post {
  return {
    id: 'p1',
    content: 'Hello campus',
    images: [],
    visibility: 'public',
    likesCount: 5,
    isLiked: false,
    commentsCount: 2,
    repostsCount: 0,
    saved: false,
    reposted: false,
    countsVersion: 0,
    author: { id: 'u1', name: 'Asha Rao', avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/20/123' },
    createdAt: '2025-01-01T10:00:00Z',
    editedAt: '',
    group: null,
    mentions: [],
    repostOf: null,
    ...over,
  };
}
