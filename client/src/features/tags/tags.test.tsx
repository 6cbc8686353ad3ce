// Issue 27 item 2: a tag's page (Newest / Top, the pill, the reader's own
// new post on top, keyboard tabs), and "Trending on campus".
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeAtom } from '../../lib/navigation';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { postCreatedAtom } from '../posts/postsAtoms';
import { makePost } from '../posts/testPosts';
import { newerThanShown, newPostsText, TAG_POLL_MS, TagPage } from './TagPage';
import { normalizeTrending } from './tagsApi';
import { countsLabel, postSnippet, TrendingCard, TrendingInSearch } from './TrendingList';

const ok = (data: unknown) => json({ status: 'success', data });
const me = { id: 'u1', name: 'Asha Rao', email: 'asha@uni.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const post = (id: string, content: string, likes = 0) => ({ ...makePost({ id, content, likesCount: likes }), author: me, user: me });

function renderIn(ui: React.ReactNode) {
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: me }));
  const store = createStore();
  render(<Provider store={store}>{ui}</Provider>);
  return store;
}

const titles = () => [...document.querySelectorAll('article.post-card .post-card__content')].map((el) => el.textContent);

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the tag page', () => {
  it('shows the tag, its count and its newest posts; Top loads when opened; arrow keys switch', async () => {
    const sorts: string[] = [];
    installFakeFetch({
      '/api/tags/chess': () => ok({ tag: { name: 'chess', postsCount: 2, postsLabel: '2 posts', url: '/tags/chess' } }),
      '/api/tags/chess/posts': (_init, url) => {
        sorts.push(url.searchParams.get('sort') ?? '');
        return url.searchParams.get('sort') === 'top'
          ? ok({ posts: [post('a', 'Old but loved #chess', 9), post('b', 'Newer #chess')], nextCursor: null })
          : ok({ posts: [post('b', 'Newer #chess'), post('a', 'Old but loved #chess', 9)], nextCursor: null });
      },
    });
    renderIn(<TagPage tag="chess" />);
    expect(screen.getByRole('heading', { level: 1, name: '#chess' })).toBeTruthy();
    await screen.findByText('2 posts');
    await vi.waitFor(() => expect(titles()).toEqual(['Newer #chess', 'Old but loved #chess']));
    expect(sorts).toEqual(['new']);
    const newest = screen.getByRole('tab', { name: 'Newest' });
    expect(newest.getAttribute('aria-selected')).toBe('true');
    newest.focus();
    fireEvent.keyDown(newest, { key: 'ArrowRight' });
    const top = screen.getByRole('tab', { name: 'Top' });
    expect(top.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(top);
    await vi.waitFor(() => expect(titles()).toEqual(['Old but loved #chess', 'Newer #chess']));
    expect(sorts).toEqual(['new', 'top']);
    fireEvent.keyDown(top, { key: 'ArrowLeft' });
    expect(titles()).toEqual(['Newer #chess', 'Old but loved #chess']);
    expect(sorts).toEqual(['new', 'top']); // each sort read once
    // A tag in a post leads to its page.
    expect(screen.getAllByRole('link', { name: '#chess' })[0]!.getAttribute('href')).toBe('/tags/chess');
  });

  it('says when no post has the tag', async () => {
    installFakeFetch({
      '/api/tags/quiet': () => ok({ tag: { name: 'quiet', postsCount: 0, postsLabel: '0 posts' } }),
      '/api/tags/quiet/posts': () => ok({ posts: [], nextCursor: null }),
    });
    renderIn(<TagPage tag="quiet" />);
    expect(await screen.findByText('No posts with #quiet yet')).toBeTruthy();
  });

  it('announces newer posts with a pill and shows them when pressed; the reader’s own post goes on top at once', async () => {
    let first = [post('b', 'Second #exams'), post('a', 'First #exams')];
    installFakeFetch({
      '/api/tags/exams': () => ok({ tag: { name: 'exams', postsCount: 2, postsLabel: '2 posts' } }),
      '/api/tags/exams/posts': () => ok({ posts: first, nextCursor: null }),
    });
    const store = renderIn(<TagPage tag="exams" />);
    await vi.waitFor(() => expect(titles()).toEqual(['Second #exams', 'First #exams']));
    first = [post('d', 'Fourth #exams'), post('c', 'Third #exams'), ...first];
    await act(async () => vi.advanceTimersByTimeAsync(TAG_POLL_MS + 10));
    const pill = await screen.findByRole('button', { name: /2 new posts/ });
    expect(titles()).toEqual(['Second #exams', 'First #exams']); // nothing moved yet
    act(() => pill.click());
    expect(titles()).toEqual(['Fourth #exams', 'Third #exams', 'Second #exams', 'First #exams']);
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
    // Written here with the tag (any case): on top without waiting; without it: not here.
    act(() => store.set(postCreatedAtom, { ...makePost({ id: 'mine', content: 'My notes #Exams' }), author: me } as never));
    act(() => store.set(postCreatedAtom, { ...makePost({ id: 'other', content: 'Unrelated' }), author: me } as never));
    expect(titles()[0]).toBe('My notes #Exams');
    expect(titles()).not.toContain('Unrelated');
  });

  it('finds what a fresh page has that is newer than what is shown', () => {
    expect(newerThanShown(['d', 'c', 'b', 'a'], ['b', 'a'])).toEqual(['d', 'c']);
    expect(newerThanShown(['b', 'a'], ['b', 'a'])).toEqual([]);
    expect(newerThanShown(['z', 'y'], ['b', 'a'])).toEqual(['z', 'y']);
    expect(newPostsText(1)).toBe('1 new post');
    expect(newPostsText(3)).toBe('3 new posts');
  });
});

describe('trending on campus', () => {
  const trending = {
    tags: [
      { tag: 'exams', people: 12, peopleLabel: '12 people posting', url: '/tags/exams' },
      { tag: 'library', people: 1, peopleLabel: '1 person posting', url: '/tags/library' },
    ],
    posts: [post('h', 'Results are out #exams', 40)],
  };

  it('the card lists tags and posts, each a link', async () => {
    installFakeFetch({ '/api/trending': () => ok(trending) });
    const store = renderIn(<TrendingCard />);
    expect(screen.getByRole('heading', { name: 'Trending on campus' })).toBeTruthy();
    const tag = await screen.findByRole('link', { name: '#exams' });
    expect(tag.getAttribute('href')).toBe('/tags/exams');
    expect(screen.getByText('12 people posting')).toBeTruthy();
    const p = screen.getByRole('link', { name: 'Results are out #exams' });
    expect(p.getAttribute('href')).toBe('/post/h');
    expect(screen.getByText(/40 likes · 2 comments/)).toBeTruthy();
    act(() => tag.click());
    expect(store.get(routeAtom)).toEqual({ page: 'tag', tag: 'exams' });
  });

  it('says when nothing trends, and is left out when it cannot load', async () => {
    installFakeFetch({ '/api/trending': () => ok({ tags: [], posts: [] }) });
    renderIn(<TrendingCard />);
    expect(await screen.findByText(/Nothing is trending yet/)).toBeTruthy();
    cleanup();
    installFakeFetch({ '/api/trending': () => json({ status: 'error', message: 'boom' }, 500) });
    renderIn(<TrendingCard />);
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'Trending on campus' })).toBeNull());
  });

  it('in search: result rows that open the tag or the post and close the overlay', async () => {
    installFakeFetch({ '/api/trending': () => ok(trending) });
    const close = vi.fn();
    const store = renderIn(<TrendingInSearch close={close} />);
    const tag = await screen.findByRole('button', { name: /#exams.*12 people posting.*Tag/ });
    expect(tag.className).toBe('search-result');
    act(() => screen.getByRole('button', { name: /Results are out.*Post/ }).click());
    expect(close).toHaveBeenCalledTimes(1);
    expect(store.get(routeAtom)).toEqual({ page: 'post', postId: 'h' });
  });

  it('normalizes the answer and words the rows', () => {
    expect(normalizeTrending({ tags: [{ tag: '' }, { tag: 'ok', people: 2, peopleLabel: '2 people posting' }], posts: [{}] })).toEqual({
      tags: [{ tag: 'ok', people: 2, peopleLabel: '2 people posting' }],
      posts: [],
    });
    expect(postSnippet('  a\n b ', 0)).toBe('a b');
    expect(postSnippet('', 2)).toBe('Photo');
    expect(postSnippet('x'.repeat(90), 0, 80)).toBe(`${'x'.repeat(80)}…`);
    expect(countsLabel(1, 1234)).toBe('1 like · 1,234 comments');
  });
});
