// Issue 16: the live feed (post:new → "N new posts" pill that keeps the
// reader's place), the card's like count and the reason of a suggestion.
// Live edits and friend:removed, frames into the store, are app/realtime.test's.

import { act, cleanup, render, screen, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { suggestionReason } from '../friends/friendsApi';
import { notificationTarget, toAppNotification } from '../notifications/model';
import { postCreatedAtom } from '../posts/postsAtoms';
import { makePost } from '../posts/testPosts';
import { newPostIdsAtom, newPostsLabel, postAnnouncedAtom } from './feedAtoms';
import { FeedPage } from './FeedPage';

const me = { id: 'u1', name: 'Asha Rao', role: 'student' as const, universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const friend = { id: 'u2', name: 'Ravi Kumar', role: 'student', universityId: 'BWU/BCA/20/7', avatar: { url: '' } };
const ok = (data: unknown) => json({ status: 'success', data });

function post(id: string, minutesAgo: number, extra: Record<string, unknown> = {}) {
  const createdAt = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  return { id, content: `Post ${id}`, images: [], likesCount: 0, isLiked: false, commentsCount: 0, author: friend, createdAt, updatedAt: createdAt, ...extra };
}

function renderFeed() {
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ user: me }));
  const store = createStore();
  render(
    <Provider store={store}>
      <FeedPage />
    </Provider>,
  );
  return store;
}

const announce = (store: ReturnType<typeof createStore>, postId: string) =>
  act(() => store.set(postAnnouncedAtom, postId));

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// Rendering the whole feed takes seconds on a loaded 2-core machine.
describe('new posts pill (issue 16)', { timeout: 20_000 }, () => {
  it('labels one and many', () => {
    expect(newPostsLabel(1)).toBe('1 new post');
    expect(newPostsLabel(12)).toBe('12 new posts');
  });

  it('counts announced posts, announces politely, and loads them on top when pressed', async () => {
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('old1', 30), post('old2', 60)], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
      '/api/posts/n1': () => ok({ post: post('n1', 2), comments: [] }),
      '/api/posts/n2': () => ok({ post: post('n2', 1), comments: [] }),
      '/api/posts/gone': () => json({ status: 'error', message: 'Post not found' }, 404),
    });
    const store = renderFeed();
    await screen.findByText('Post old1');
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();

    announce(store, 'n1');
    // findBy: the pill subscribes to the store in an effect, which may run
    // after the first posts show (it then catches up).
    expect(await screen.findByRole('button', { name: '1 new post' })).toBeTruthy();
    announce(store, 'n2');
    announce(store, 'n2'); // a repeat counts once
    announce(store, 'gone');
    announce(store, 'old1'); // already shown: not new
    expect(await screen.findByRole('button', { name: '3 new posts' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('3 new posts');

    await act(async () => screen.getByRole('button', { name: '3 new posts' }).click());
    const order = Array.from(document.querySelectorAll('article[data-post-id]')).map((a) => a.getAttribute('data-post-id'));
    expect(order).toEqual(['n2', 'n1', 'old1', 'old2']);
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(store.get(newPostIdsAtom)).toEqual([]);
  });

  it("does not count the reader's own post made in this tab", async () => {
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('old1', 30)], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
    });
    const store = renderFeed();
    await screen.findByText('Post old1');
    act(() => store.set(postCreatedAtom, makePost({ id: 'mine', author: { ...me, role: 'student', avatar: { url: '' } } })));
    announce(store, 'mine');
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
  });

  it('keeps the first visible card where it was when posts go in above it', async () => {
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('old1', 30), post('old2', 60), post('old3', 90)], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
      '/api/posts/n1': () => ok({ post: post('n1', 2), comments: [] }),
      '/api/posts/n2': () => ok({ post: post('n2', 1), comments: [] }),
    });
    // A layout: cards are 100 px tall, the list starts 300 px down the page.
    let scrollY = 420;
    Object.defineProperty(window, 'scrollY', { configurable: true, get: () => scrollY });
    const scrollBy = vi.fn((x: number, y: number) => {
      void x;
      scrollY += y;
    });
    vi.stubGlobal('scrollBy', scrollBy);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const cards = Array.from(document.querySelectorAll('article[data-post-id]'));
      const i = cards.indexOf(this);
      const top = i < 0 ? 0 : 300 + i * 100 - scrollY;
      return { top, bottom: top + 100, left: 0, right: 0, width: 0, height: i < 0 ? 0 : 100, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
    });
    const store = renderFeed();
    await screen.findByText('Post old1');
    // old2 is the first card on screen: old1 ends at 300 + 100 - 420 < 0.
    announce(store, 'n1');
    announce(store, 'n2');
    const pill = await screen.findByRole('button', { name: '2 new posts' });
    await act(async () => pill.click());
    expect(scrollBy).toHaveBeenCalledWith(0, 200);
    const old2 = document.querySelector('article[data-post-id="old2"]')!;
    expect(old2.getBoundingClientRect().top).toBe(300 + 100 - 420);
  });
});

describe('post card like count (issue 16)', () => {
  it('reads "1 like" and "12 likes"', async () => {
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('a', 5, { likesCount: 1 }), post('b', 6, { likesCount: 12 })], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
    });
    renderFeed();
    const a = (await screen.findByText('Post a')).closest('article')!;
    const b = screen.getByText('Post b').closest('article')!;
    expect(a.querySelector('.post-card__likes')!.textContent).toBe('1 like');
    expect(b.querySelector('.post-card__likes')!.textContent).toBe('12 likes');
    expect(within(b).getByTestId('likes-count').textContent).toBe('12');
  });
});

describe('suggestion reason (issue 16)', () => {
  it.each([
    [{ mutualFriends: 2, relevance: ['course'] }, '2 mutual friends'],
    [{ mutualFriends: 1, relevance: [] }, '1 mutual friend'],
    [{ mutualFriends: 0, relevance: ['course', 'batch', 'role'] }, 'Same course and batch'],
    [{ mutualFriends: 0, relevance: ['course'] }, 'Same course'],
    [{ mutualFriends: 0, relevance: ['batch'] }, 'Same batch'],
    [{ mutualFriends: 0, relevance: ['role'] }, ''],
  ])('%o → %s', (s, want) => {
    expect(suggestionReason(s)).toBe(want);
  });

  it('People You May Know shows it under the name, as the find-people page does', async () => {
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [], nextCursor: null }),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
      '/api/friends/suggestions': () =>
        ok([
          { user: { ...friend, id: 'u5', name: 'Tara' }, mutualFriends: 3, relevance: [] },
          { user: { ...friend, id: 'u6', name: 'Omar' }, mutualFriends: 0, relevance: ['course', 'batch'] },
        ]),
    });
    renderFeed();
    const box = screen.getByRole('region', { name: 'People You May Know' });
    const tara = (await within(box).findByText('Tara', { selector: '.people__name' })).closest('li')!;
    expect(within(tara).getByText('3 mutual friends')).toBeTruthy();
    const omar = within(box).getByText('Omar', { selector: '.people__name' }).closest('li')!;
    expect(within(omar).getByText('Same course and batch')).toBeTruthy();
  });
});

describe('profile like notification (issue 16)', () => {
  it('reads as a roll-up and opens the newest liker', () => {
    const actors = [
      { id: 'u7', name: 'Chitra', avatar: { url: '' } },
      { id: 'u8', name: 'Asha', avatar: { url: '' } },
    ];
    const n = toAppNotification({ id: 'n1', type: 'profile_like', actors, actorCount: 3, unreadCount: 1 });
    expect(n.message).toBe('Chitra and 2 others liked your profile');
    expect(notificationTarget(n)).toEqual({ page: 'profile', userId: 'u7' });
    const sent = toAppNotification({ id: 'n1', type: 'profile_like', actors, actorCount: 3, message: 'From the server', unreadCount: 1 });
    expect(sent.message).toBe('From the server');
  });
});
