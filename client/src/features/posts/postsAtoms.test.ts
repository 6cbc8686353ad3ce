import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { normalizePost } from './model';
import {
  applyCommentsCountAtom,
  applyPostCountsAtom,
  createdPostIdsAtom,
  deletePostAtom,
  likePendingAtom,
  postAtom,
  postCreatedAtom,
  removePostAtom,
  toggleLikeAtom,
  upsertPostsAtom,
} from './postsAtoms';
import { makePost } from './testPosts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('optimistic like (docs/product.md §4 Post like)', () => {
  it('flips at once, then adopts the server answer', async () => {
    const answer = deferred<Response>();
    const fetchMock = installFakeFetch({ '/api/posts/p1/like': () => answer.promise });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);

    const done = store.set(toggleLikeAtom, 'p1');
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 6 });
    expect(store.get(likePendingAtom).has('p1')).toBe(true);
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('POST');

    answer.resolve(json({ status: 'success', data: { isLiked: true, likesCount: 42 } }));
    await expect(done).resolves.toBe(true);
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 42 });
    expect(store.get(likePendingAtom).has('p1')).toBe(false);
  });

  it('unlikes with DELETE', async () => {
    const fetchMock = installFakeFetch({
      '/api/posts/p1/like': () => json({ status: 'success', data: { isLiked: false, likesCount: 4 } }),
    });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ isLiked: true })]);
    const done = store.set(toggleLikeAtom, 'p1');
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: false, likesCount: 4 });
    await done;
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('DELETE');
  });

  it('reverts when the call fails', async () => {
    installFakeFetch({ '/api/posts/p1/like': () => json({ status: 'error', message: 'nope' }, 500) });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    const done = store.set(toggleLikeAtom, 'p1');
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 6 });
    await expect(done).resolves.toBe(false);
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: false, likesCount: 5 });
  });

  it('keeps the optimistic state while a 503 is retried, and adopts the answer of the retry', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const fetchMock = installFakeFetch({
        '/api/posts/p1/like': () =>
          ++calls === 1
            ? json({ status: 'error', message: 'The service is busy.', retryAfter: 1 }, 503)
            : json({ status: 'success', data: { isLiked: true, likesCount: 8 } }),
      });
      const store = createStore();
      store.set(upsertPostsAtom, [makePost()]);
      const done = store.set(toggleLikeAtom, 'p1');
      await vi.advanceTimersByTimeAsync(500);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 6 });
      expect(store.get(likePendingAtom).has('p1')).toBe(true);
      await vi.advanceTimersByTimeAsync(5_000);
      await expect(done).resolves.toBe(true);
      expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 8 });
      const ids = fetchMock.mock.calls.map((c) => (c[1]!.headers as Record<string, string>)['X-Request-Id']);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toBe(ids[1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reverts on a network failure too', async () => {
    installFakeFetch({});
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ isLiked: true, likesCount: 1 })]);
    await store.set(toggleLikeAtom, 'p1');
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 1 });
  });

  it('ignores clicks while a call is in flight', async () => {
    const answer = deferred<Response>();
    const fetchMock = installFakeFetch({ '/api/posts/p1/like': () => answer.promise });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    const first = store.set(toggleLikeAtom, 'p1');
    await expect(store.set(toggleLikeAtom, 'p1')).resolves.toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 6 });
    answer.resolve(json({ status: 'success', data: { isLiked: true, likesCount: 6 } }));
    await first;
  });
});

describe('live updates', () => {
  it('post:counts changes the counts and keeps the viewer’s isLiked', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ isLiked: true, likesCount: 3, commentsCount: 1 })]);
    store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 17, commentsCount: 4 }]);
    expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 17, commentsCount: 4 });
  });

  it('post:counts with nothing new leaves the posts as they are', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ likesCount: 3, commentsCount: 1 })]);
    const before = store.get(postAtom('p1'));
    store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 3, commentsCount: 1 }]);
    store.set(applyPostCountsAtom, [{ postId: 'nope', likesCount: 3, commentsCount: 1 }]);
    expect(store.get(postAtom('p1'))).toBe(before);
    expect(store.get(postAtom('nope'))).toBeUndefined();
  });

  it('post:counts keeps the like count while the viewer’s own call is in flight, not the comment count', async () => {
    const answer = deferred<Response>();
    installFakeFetch({ '/api/posts/p1/like': () => answer.promise });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ likesCount: 3 })]);
    const done = store.set(toggleLikeAtom, 'p1');
    store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 3, commentsCount: 5 }]); // an older broadcast
    expect(store.get(postAtom('p1'))).toMatchObject({ likesCount: 4, commentsCount: 5 });
    answer.resolve(json({ status: 'success', data: { isLiked: true, likesCount: 9 } }));
    await done;
    expect(store.get(postAtom('p1'))!.likesCount).toBe(9);
  });

  describe('counts are ordered by their version, not by when they came', () => {
    const likeAnswer = (likesCount: number, countsVersion: number) =>
      json({ status: 'success', data: { isLiked: true, likesCount, countsVersion } });

    it('a post:counts entry older than the counts shown is dropped', () => {
      const store = createStore();
      store.set(upsertPostsAtom, [makePost({ likesCount: 3, commentsCount: 1, countsVersion: 5 })]);
      store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 2, commentsCount: 0, countsVersion: 4 }]);
      expect(store.get(postAtom('p1'))).toMatchObject({ likesCount: 3, commentsCount: 1, countsVersion: 5 });
      store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 7, commentsCount: 2, countsVersion: 6 }]);
      expect(store.get(postAtom('p1'))).toMatchObject({ likesCount: 7, commentsCount: 2, countsVersion: 6 });
    });

    it('a frame built before the viewer’s like, arriving after its answer, does not take the like back', async () => {
      installFakeFetch({ '/api/posts/p1/like': () => likeAnswer(6, 10) });
      const store = createStore();
      store.set(upsertPostsAtom, [makePost({ likesCount: 5, countsVersion: 9 })]);
      await store.set(toggleLikeAtom, 'p1');
      store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 5, commentsCount: 2, countsVersion: 9 }]);
      expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 6, countsVersion: 10 });
    });

    it('counts newer than the answer that came during the call win, with the answer’s isLiked', async () => {
      const answer = deferred<Response>();
      installFakeFetch({ '/api/posts/p1/like': () => answer.promise });
      const store = createStore();
      store.set(upsertPostsAtom, [makePost({ likesCount: 5, commentsCount: 2, countsVersion: 9 })]);
      const done = store.set(toggleLikeAtom, 'p1');
      store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 8, commentsCount: 3, countsVersion: 12 }]);
      expect(store.get(postAtom('p1'))).toMatchObject({ likesCount: 6, commentsCount: 3 }); // optimistic likes held
      answer.resolve(likeAnswer(6, 10));
      await done;
      expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: true, likesCount: 8, commentsCount: 3, countsVersion: 12 });
    });

    it('a page fetched before the like keeps neither its counts nor its like state', async () => {
      installFakeFetch({ '/api/posts/p1/like': () => likeAnswer(6, 10) });
      const store = createStore();
      store.set(upsertPostsAtom, [makePost({ likesCount: 5, countsVersion: 9 })]);
      await store.set(toggleLikeAtom, 'p1');
      store.set(upsertPostsAtom, [makePost({ content: 'Edited', likesCount: 5, isLiked: false, countsVersion: 9 })]);
      expect(store.get(postAtom('p1'))).toMatchObject({ content: 'Edited', isLiked: true, likesCount: 6, countsVersion: 10 });
      store.set(upsertPostsAtom, [makePost({ likesCount: 4, isLiked: false, countsVersion: 11 })]);
      expect(store.get(postAtom('p1'))).toMatchObject({ isLiked: false, likesCount: 4, countsVersion: 11 });
    });

    it('a new post’s page (version 0) fetched before its first like does not undo the like seen live', () => {
      const store = createStore();
      store.set(upsertPostsAtom, [makePost({ likesCount: 0, commentsCount: 0, countsVersion: 0 })]);
      store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 1, commentsCount: 0, countsVersion: 1 }]);
      store.set(upsertPostsAtom, [makePost({ likesCount: 0, commentsCount: 0, countsVersion: 0 })]);
      expect(store.get(postAtom('p1'))).toMatchObject({ likesCount: 1, countsVersion: 1 });
    });

    it('a comment answer older than the counts shown is dropped', () => {
      const store = createStore();
      store.set(upsertPostsAtom, [makePost({ commentsCount: 4, countsVersion: 7 })]);
      store.set(applyCommentsCountAtom, { postId: 'p1', commentsCount: 3, countsVersion: 6 });
      expect(store.get(postAtom('p1'))).toMatchObject({ commentsCount: 4, countsVersion: 7 });
      store.set(applyCommentsCountAtom, { postId: 'p1', commentsCount: 5, countsVersion: 8 });
      expect(store.get(postAtom('p1'))).toMatchObject({ commentsCount: 5, countsVersion: 8 });
    });
  });

  it('the comments list sets the comment count; unknown posts are ignored', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    store.set(applyCommentsCountAtom, { postId: 'p1', commentsCount: 8 });
    store.set(applyCommentsCountAtom, { postId: 'nope', commentsCount: 8 });
    expect(store.get(postAtom('p1'))!.commentsCount).toBe(8);
    expect(store.get(postAtom('nope'))).toBeUndefined();
  });

  it('post:deleted removes the post and keeps it out of later pages', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    store.set(removePostAtom, 'p1');
    expect(store.get(postAtom('p1'))).toBeUndefined();
    store.set(upsertPostsAtom, [makePost()]);
    expect(store.get(postAtom('p1'))).toBeUndefined();
  });
});

describe('create and delete', () => {
  it('a created post goes on top of the created list', () => {
    const store = createStore();
    store.set(postCreatedAtom, makePost({ id: 'a' }));
    store.set(postCreatedAtom, makePost({ id: 'b' }));
    expect(store.get(createdPostIdsAtom)).toEqual(['b', 'a']);
    expect(store.get(postAtom('b'))).toBeDefined();
  });

  it('delete calls the server, then drops the post', async () => {
    const fetchMock = installFakeFetch({ '/api/posts/p1': () => json({ status: 'success', data: null }) });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    await store.set(deletePostAtom, 'p1');
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('DELETE');
    expect(store.get(postAtom('p1'))).toBeUndefined();
  });

  it('a failed delete keeps the post', async () => {
    installFakeFetch({ '/api/posts/p1': () => json({ status: 'error', message: 'Not yours' }, 403) });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    await expect(store.set(deletePostAtom, 'p1')).rejects.toMatchObject({ message: 'Not yours' });
    expect(store.get(postAtom('p1'))).toBeDefined();
  });
});

describe('normalizePost (docs/product.md §3)', () => {
  it('reads user when author is missing, _id, likes lists and legacy media', () => {
    const p = normalizePost({
      _id: 'x1',
      content: 'hi',
      user: { _id: 'u5', name: 'Ravi', avatar: 'http://a/b.png' },
      likes: ['a', 'b'],
      comments: [{}, {}, {}],
      media: { url: '/media/1.jpg' },
    });
    expect(p).toMatchObject({ id: 'x1', likesCount: 2, commentsCount: 3, isLiked: false });
    expect(p.author).toMatchObject({ id: 'u5', name: 'Ravi', avatar: { url: 'http://a/b.png' } });
    expect(p.images).toEqual([{ url: '/media/1.jpg', type: 'image', width: 0, height: 0, alt: '', variants: [] }]);
  });

  it('defaults a missing name to User', () => {
    expect(normalizePost({ id: 'x', author: { id: 'u' } }).author.name).toBe('User');
  });
});
