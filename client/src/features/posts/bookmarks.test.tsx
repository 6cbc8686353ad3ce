import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { normalizePost } from './model';
import { PostCard } from './PostCard';
import { repostAtom } from './RepostDialog';
import {
  applyPostCountsAtom,
  createdPostIdsAtom,
  postAtom,
  removePostAtom,
  toggleSaveAtom,
  unrepostAtom,
  upsertPostsAtom,
} from './postsAtoms';
import { makePost } from './testPosts';
import { signInAtom, type Session } from '../auth/authAtoms';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(cleanup);

const original = { id: 'p1', content: 'The original', likesCount: 4, isLiked: true, saved: true, reposted: false, commentsCount: 1, repostsCount: 2, countsVersion: 7, author: { id: 'u1', name: 'Asha Rao' }, createdAt: '2026-11-01T10:00:00Z' };
const entryJSON = { id: 'r1', content: 'worth a read', images: [], likesCount: 0, isLiked: false, saved: false, reposted: false, repostsCount: 0, author: { id: 'u2', name: 'Ben Das' }, createdAt: '2026-11-02T10:00:00Z', repostOf: original };

describe('repost entries and saved posts in the store (issue 27)', () => {
  it('normalizes a repost entry with its original, and keeps the original under its own id', () => {
    const entry = normalizePost(entryJSON);
    expect(entry.repostOf).toMatchObject({ id: 'p1', saved: true, repostsCount: 2, isLiked: true });
    const store = createStore();
    store.set(upsertPostsAtom, [entry]);
    expect(store.get(postAtom('p1'))).toMatchObject({ content: 'The original', repostsCount: 2 });
    expect(store.get(postAtom('r1'))!.repostOf!.id).toBe('p1');
  });

  it('post:counts moves the repost count, and an entry without it keeps the one shown', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ repostsCount: 1, countsVersion: 3 })]);
    store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 5, commentsCount: 2, repostsCount: 4, countsVersion: 4 }]);
    expect(store.get(postAtom('p1'))).toMatchObject({ repostsCount: 4, countsVersion: 4 });
    store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 6, commentsCount: 2, countsVersion: 5 }]);
    expect(store.get(postAtom('p1'))).toMatchObject({ repostsCount: 4, likesCount: 6 });
    store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 6, commentsCount: 2, repostsCount: 0, countsVersion: 2 }]);
    expect(store.get(postAtom('p1'))!.repostsCount).toBe(4); // older: dropped
  });

  it('deleting the original takes its repost entries with it', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [normalizePost(entryJSON)]);
    store.set(removePostAtom, 'p1');
    expect(store.get(postAtom('p1'))).toBeUndefined();
    expect(store.get(postAtom('r1'))).toBeUndefined();
    // A page fetched before the deletion does not bring the entry back.
    store.set(upsertPostsAtom, [normalizePost(entryJSON)]);
    expect(store.get(postAtom('r1'))).toBeUndefined();
  });

  it('saves optimistically with PUT, unsaves with DELETE, and reverts on failure', async () => {
    let fail = false;
    const fetchMock = installFakeFetch({
      '/api/posts/p1/bookmark': (init) =>
        fail ? json({ status: 'error', message: 'nope' }, 500) : json({ status: 'success', data: { saved: init?.method === 'PUT' } }),
    });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    const saving = store.set(toggleSaveAtom, 'p1');
    expect(store.get(postAtom('p1'))!.saved).toBe(true);
    await expect(saving).resolves.toBe(true);
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('PUT');
    await store.set(toggleSaveAtom, 'p1');
    expect(fetchMock.mock.calls[1]![1]!.method).toBe('DELETE');
    expect(store.get(postAtom('p1'))!.saved).toBe(false);
    fail = true;
    await expect(store.set(toggleSaveAtom, 'p1')).resolves.toBe(false);
    expect(store.get(postAtom('p1'))!.saved).toBe(false);
  });

  it('a repost puts the viewer’s entry first and counts it; undoing takes the entry away', async () => {
    const bodies: unknown[] = [];
    installFakeFetch({
      '/api/posts/p1/repost': (init) => {
        if (init?.method === 'DELETE') return json({ status: 'success', data: { reposted: false, repostsCount: 2, countsVersion: 9, repost: null } });
        bodies.push(JSON.parse(String(init?.body)));
        return json({ status: 'success', data: { reposted: true, repostsCount: 3, countsVersion: 8, repost: { ...entryJSON, repostOf: { ...original, reposted: true, repostsCount: 3, countsVersion: 8 } } } });
      },
    });
    const store = createStore();
    store.set(upsertPostsAtom, [normalizePost(original)]);
    await store.set(repostAtom, { postId: 'p1', comment: 'worth a read' });
    expect(bodies).toEqual([{ comment: 'worth a read' }]);
    expect(store.get(postAtom('p1'))).toMatchObject({ reposted: true, repostsCount: 3 });
    expect(store.get(createdPostIdsAtom)[0]).toBe('r1');
    await store.set(unrepostAtom, { postId: 'p1', meId: 'u2' });
    expect(store.get(postAtom('p1'))).toMatchObject({ reposted: false, repostsCount: 2 });
    expect(store.get(postAtom('r1'))).toBeUndefined();
  });
});

describe('PostCard with save and repost (issue 27)', () => {
  function renderCard(store: ReturnType<typeof createStore>, id: string) {
    return render(
      <Provider store={store}>
        <PostCard postId={id} />
      </Provider>,
    );
  }

  it('a repost entry says who reposted, shows the comment and acts on the original', () => {
    const store = createStore();
    store.set(upsertPostsAtom, [normalizePost(entryJSON)]);
    const { container } = renderCard(store, 'r1');
    expect(container.querySelector('.post-card__reposted')!.textContent).toMatch(/Ben Das\s*reposted/);
    expect(screen.getByText('worth a read')).toBeTruthy();
    expect(screen.getByText('The original')).toBeTruthy();
    expect(screen.getByTestId('reposts-count').textContent).toBe('2');
    // The original's state: liked and saved by this viewer.
    expect(screen.getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Saved' }).getAttribute('aria-pressed')).toBe('true');
    expect(container.querySelector('[data-post-id="p1"]')).not.toBeNull();
  });

  it('the save button reflects and flips the saved state', async () => {
    installFakeFetch({ '/api/posts/p1/bookmark': () => json({ status: 'success', data: { saved: true } }) });
    const store = createStore();
    store.set(upsertPostsAtom, [makePost()]);
    renderCard(store, 'p1');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(save);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Saved' }).getAttribute('aria-pressed')).toBe('true'));
  });

  it('offers Repost on others’ posts outside groups only', () => {
    const store = createStore();
    store.set(signInAtom, { token: 't', user: { id: 'u9', name: 'Viewer' } } as unknown as Session);
    store.set(upsertPostsAtom, [
      makePost({ id: 'g1', group: { id: 'g', handle: 'chess', name: 'Chess', visibility: 'public' } }),
      makePost({ id: 'p2' }),
      makePost({ id: 'own', author: { id: 'u9', name: 'Viewer', avatar: { url: '' }, role: 'student', universityId: '' } }),
    ]);
    const cases: [string, boolean][] = [['g1', false], ['p2', true], ['own', false]];
    for (const [id, offered] of cases) {
      const { unmount } = renderCard(store, id);
      expect(screen.queryByRole('button', { name: 'Repost' }) !== null).toBe(offered);
      unmount();
    }
  });
});
