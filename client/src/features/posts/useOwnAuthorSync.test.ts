import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { postAtom, upsertPostsAtom } from './postsAtoms';
import { makePost } from './testPosts';
import { syncOwnAuthorAtom } from './useOwnAuthorSync';

describe('own posts follow a changed name (issue 16 #9)', () => {
  it("renames the author on my posts only", () => {
    const store = createStore();
    const other = { id: 'u9', name: 'Zoya', avatar: { url: '' }, role: 'student' as const, universityId: '' };
    store.set(upsertPostsAtom, [makePost({ id: 'p1' }), makePost({ id: 'p2', author: other })]);
    store.set(syncOwnAuthorAtom, { id: 'u1', name: 'Asha R. Rao', avatar: { url: '/media/new.png' }, role: 'student', universityId: 'BWU/BCA/20/123' });
    expect(store.get(postAtom('p1'))!.author.name).toBe('Asha R. Rao');
    expect(store.get(postAtom('p1'))!.author.avatar.url).toBe('/media/new.png');
    expect(store.get(postAtom('p2'))!.author.name).toBe('Zoya');
  });
});
