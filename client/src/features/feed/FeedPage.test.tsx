import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { removePostAtom } from '../posts/postsAtoms';
import { FeedPage } from './FeedPage';

const me = { id: 'u1', name: 'Asha Rao', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const other = { id: 'u2', name: 'Ravi Kumar', role: 'faculty', universityId: '', avatar: { url: '' } };
const ok = (data: unknown) => json({ status: 'success', data });

function post(id: string, author = me, extra: Record<string, unknown> = {}) {
  return { id, content: `Post ${id}`, images: [], likesCount: 1, isLiked: false, commentsCount: 0, author, createdAt: new Date().toISOString(), ...extra };
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

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(cleanup);

describe('feed (docs/product.md §2.12)', () => {
  it('shows 3 skeleton cards while loading, then the posts', async () => {
    let release!: () => void;
    installFakeFetch({
      '/api/posts/feed': () => new Promise<Response>((r) => (release = () => r(ok({ posts: [post('a'), post('b', other)], nextCursor: null })))),
      '/api/friends/suggestions': () => ok([]),
    });
    renderFeed();
    expect(document.querySelectorAll('.post-skeleton')).toHaveLength(3);
    await act(async () => release());
    expect(await screen.findByText('Post a')).toBeTruthy();
    expect(screen.getByText('Post b')).toBeTruthy();
    expect(document.querySelectorAll('.post-skeleton')).toHaveLength(0);
    expect(screen.getByText("You're all caught up.")).toBeTruthy();
  });

  it('loads the next page with the cursor', async () => {
    const cursors: Array<string | null> = [];
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
    });
    const fetchMock = installFakeFetch({
      '/api/posts/feed': (init) => {
        void init;
        const url = String(fetchMock.mock.calls[fetchMock.mock.calls.length - 1]![0]);
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        cursors.push(cursor);
        return cursor ? ok({ posts: [post('c')], nextCursor: null }) : ok({ posts: [post('a')], nextCursor: 'CUR1' });
      },
      '/api/friends/suggestions': () => ok([]),
    });
    renderFeed();
    await screen.findByText('Post a');
    act(() => screen.getByRole('button', { name: 'Load more posts' }).click());
    expect(await screen.findByText('Post c')).toBeTruthy();
    expect(cursors).toEqual([null, 'CUR1']);
  });

  it('people you may know: first 3, Add → disabled Sent', async () => {
    let sentTo: unknown;
    const s = (id: string, name: string) => ({ user: { id, name, avatar: { url: '' }, universityId: 'BWU/X/20/1', role: 'student' }, mutualFriends: 0 });
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [], nextCursor: null }),
      '/api/friends/suggestions': () => ok([s('a', 'Ann'), s('b', 'Ben'), s('c', 'Cal'), s('d', 'Dee'), { user: { id: 'x' } }]),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
      '/api/friends/sent-requests': () => ok({ sentRequests: [] }),
      '/api/friends/send-request': (init) => {
        sentTo = JSON.parse(String(init?.body));
        return ok({ friendRequest: { id: 'r1' } });
      },
    });
    renderFeed();
    const box = await screen.findByRole('region', { name: 'People You May Know' });
    await within(box).findByText('Ann', { selector: '.people__name' });
    expect(within(box).queryByText('Dee')).toBeNull();
    expect(within(box).getAllByRole('button', { name: /^Add / })).toHaveLength(3);
    await act(async () => within(box).getByRole('button', { name: 'Add Ben' }).click());
    expect(sentTo).toEqual({ receiverId: 'b' });
    const sent = within(box).getByRole('button', { name: 'Sent Ben' }) as HTMLButtonElement;
    expect(sent.disabled).toBe(true);
    expect(sent.textContent).toContain('Sent');
  });

  it('people you may know: someone who already asked me gets Accept, not Add (issue 16 #4)', async () => {
    const s = (id: string, name: string) => ({ user: { id, name, avatar: { url: '' }, universityId: 'BWU/X/20/1', role: 'student' }, mutualFriends: 0 });
    let accepted = false;
    const fetchMock = installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [], nextCursor: null }),
      '/api/friends/suggestions': () => ok([s('a', 'Ann'), s('b', 'Ben')]),
      '/api/friends/pending-requests': () =>
        ok({ pendingRequests: [{ id: 'r7', sender: s('b', 'Ben').user, receiver: { id: 'me', name: 'Me' }, status: 'pending' }] }),
      '/api/friends/sent-requests': () => ok({ sentRequests: [] }),
      '/api/friends/accept-request/r7': () => {
        accepted = true;
        return ok({ friendRequest: { id: 'r7', status: 'accepted' } });
      },
    });
    renderFeed();
    const box = await screen.findByRole('region', { name: 'People You May Know' });
    const accept = await within(box).findByRole('button', { name: 'Accept Ben' });
    expect(within(box).getByRole('button', { name: 'Add Ann' })).toBeTruthy();
    await act(async () => accept.click());
    expect(accepted).toBe(true);
    expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('send-request'))).toBe(false);
    const done = (await within(box).findByRole('button', { name: 'Friends Ben' })) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
  });

  it('the empty state offers Create Post and Find Friends', async () => {
    installFakeFetch({ '/api/posts/feed': () => ok({ posts: [], nextCursor: null }), '/api/friends/suggestions': () => ok([]) });
    renderFeed();
    expect(await screen.findByText('Welcome to Campus!')).toBeTruthy();
    act(() => screen.getAllByRole('button', { name: 'Create Post' }).at(-1)!.click());
    expect(await screen.findByRole('dialog', { name: 'Create post' })).toBeTruthy();
  });

  it('a deleted post (live) leaves the feed', async () => {
    installFakeFetch({ '/api/posts/feed': () => ok({ posts: [post('a'), post('b')], nextCursor: null }), '/api/friends/suggestions': () => ok([]) });
    const store = renderFeed();
    await screen.findByText('Post a');
    act(() => store.set(removePostAtom, 'a'));
    expect(screen.queryByText('Post a')).toBeNull();
    expect(screen.getByText('Post b')).toBeTruthy();
  });
});

describe('post card menu (docs/product.md §2.13)', () => {
  it("offers 'Delete post' to the author only and closes on an outside click", async () => {
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('mine'), post('theirs', other)], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/posts/mine': () => ok(null),
    });
    renderFeed();
    const mine = (await screen.findByText('Post mine')).closest('article')!;
    const theirs = screen.getByText('Post theirs').closest('article')!;

    act(() => within(theirs).getByRole('button', { name: 'Post options' }).click());
    expect(within(theirs).getByRole('menuitem', { name: 'Copy link' })).toBeTruthy();
    expect(within(theirs).queryByRole('menuitem', { name: 'Delete post' })).toBeNull();
    fireEvent.mouseDown(document.body);
    expect(within(theirs).queryByRole('menu')).toBeNull();

    act(() => within(mine).getByRole('button', { name: 'Post options' }).click());
    act(() => within(mine).getByRole('menuitem', { name: 'Delete post' }).click());
    const dialog = screen.getByRole('dialog', { name: 'Delete post?' });
    await act(async () => within(dialog).getByRole('button', { name: 'Delete' }).click());
    await waitFor(() => expect(screen.queryByText('Post mine')).toBeNull());
  });

  it('likes optimistically from the card', async () => {
    let release!: () => void;
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('a', other, { likesCount: 4 })], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/posts/a/like': () => new Promise<Response>((r) => (release = () => r(ok({ isLiked: true, likesCount: 5 })))),
    });
    renderFeed();
    const card = (await screen.findByText('Post a')).closest('article')!;
    act(() => within(card).getByRole('button', { name: 'Like' }).click());
    expect(within(card).getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(card).getByTestId('likes-count').textContent).toBe('5');
    await act(async () => release());
    expect(within(card).getByTestId('likes-count').textContent).toBe('5');
  });

  it('expands comments, adds one and deletes own', async () => {
    const c1 = { id: 'c1', postId: 'a', content: 'First!', user: other, createdAt: '2025-01-01T00:00:00Z' };
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('a', other, { commentsCount: 1 })], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
      '/api/posts/a/comments': (init) =>
        init?.method === 'POST'
          ? json({ status: 'success', data: { comment: { id: 'c2', postId: 'a', content: 'Nice', user: me, createdAt: new Date().toISOString() } } }, 201)
          : ok({ comments: [c1], nextCursor: null }),
      '/api/posts/a/comments/c2': () => ok(null),
    });
    renderFeed();
    const card = (await screen.findByText('Post a')).closest('article')!;
    act(() => within(card).getByRole('button', { name: 'Comment' }).click());
    expect(await within(card).findByText('First!')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Delete comment' })).toBeNull();
    fireEvent.change(within(card).getByLabelText('Write a comment'), { target: { value: 'Nice' } });
    await act(async () => within(card).getByRole('button', { name: 'Send' }).click());
    expect(await within(card).findByText('Nice')).toBeTruthy();
    expect(within(card).getByTestId('comments-count').textContent).toBe('2');
    await act(async () => within(card).getByRole('button', { name: 'Delete comment' }).click());
    await waitFor(() => expect(within(card).queryByText('Nice')).toBeNull());
    expect(within(card).getByTestId('comments-count').textContent).toBe('1');
  });

  it('offline: shows the feed last read with an offline notice, and recovers by itself when the network is back', async () => {
    // Read once online: the first page is kept.
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('a'), post('b', other)], nextCursor: 'CUR' }),
      '/api/friends/suggestions': () => ok([]),
    });
    renderFeed();
    await screen.findByText('Post a');
    expect(JSON.parse(localStorage.getItem('campus.offline')!).userId).toBe('u1');
    cleanup();

    // Offline (every call fails like a refused connection): the kept posts, and no "Couldn't load posts".
    const auth = localStorage.getItem('campus.auth');
    const offline = localStorage.getItem('campus.offline');
    installFakeFetch({});
    localStorage.setItem('campus.auth', auth!);
    localStorage.setItem('campus.offline', offline!);
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderFeed();
    expect(await screen.findByText('Post a')).toBeTruthy();
    expect(screen.getByText('Post b')).toBeTruthy();
    expect(screen.getByTestId('offline-notice').textContent).toMatch(/^You’re offline\. Showing posts as of .*\. This page refreshes by itself when the connection is back\.$/);
    expect(screen.queryByText("Couldn't load posts")).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load more posts' })).toBeNull();

    // The network comes back: the feed loads again without a click.
    installFakeFetch({
      '/api/posts/feed': () => ok({ posts: [post('c'), post('a')], nextCursor: null }),
      '/api/friends/suggestions': () => ok([]),
    });
    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('Post c')).toBeTruthy();
    expect(screen.queryByTestId('offline-notice')).toBeNull();
  });

  it('offline with nothing kept: says offline, not "Couldn\'t load posts"', async () => {
    installFakeFetch({});
    renderFeed();
    expect((await screen.findByTestId('offline-notice')).textContent).toMatch(/Posts will load when the connection is back\./);
    expect(screen.queryByText("Couldn't load posts")).toBeNull();
  });
});
