// Issue 16 #2: links, @names and #tags in posts and comments; editing own
// post; multi-line comments (Shift+Enter newline, Enter sends).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mention } from '../../api/models';
import { RichText } from '../search/RichText';
import { searchOpenAtom, searchQueryAtom } from '../search/searchAtoms';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { Comments } from './Comments';
import { PostCard } from './PostCard';
import { upsertPostsAtom } from './postsAtoms';
import { makePost } from './testPosts';

const ok = (data: unknown) => json({ status: 'success', data });
const me = { id: 'u1', name: 'Asha Rao', email: 'asha@uni.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };

function renderWith(ui: React.ReactNode, routes: Parameters<typeof installFakeFetch>[0], content = 'Hello', mentions: Mention[] = []) {
  const fetchMock = installFakeFetch(routes);
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: me }));
  const store = createStore();
  store.set(upsertPostsAtom, [makePost({ id: 'p1', content, mentions, author: { ...me, avatar: { url: '' } } as never })]);
  render(<Provider store={store}>{ui}</Provider>);
  return { store, fetchMock };
}

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('rich text in posts', () => {
  it('links URLs with rel="noopener nofollow ugc", and #tags open their page; markup stays text', () => {
    renderWith(<PostCard postId="p1" />, {}, 'Read https://go.dev/doc. #GoLang <b>not bold</b>\nsecond line');
    const link = screen.getByRole('link', { name: 'https://go.dev/doc' });
    expect(link.getAttribute('href')).toBe('https://go.dev/doc');
    expect(link.getAttribute('rel')).toBe('noopener nofollow ugc');
    expect(document.querySelector('.post-card__content b')).toBeNull();
    expect(document.querySelector('.post-card__content')!.textContent).toContain('<b>not bold</b>\nsecond line');
    const tag = screen.getByRole('link', { name: '#GoLang' });
    expect(tag.getAttribute('href')).toBe('/tags/golang');
    act(() => tag.click());
    expect(window.location.pathname).toBe('/tags/golang');
  });

  it('an @handle the server resolved links to that profile (issue 27)', async () => {
    renderWith(<PostCard postId="p1" />, {}, 'thanks @RaviKumar! and @ravikumar.', [{ id: 'u7', handle: 'ravikumar' }]);
    const links = screen.getAllByRole('link', { name: /@ravikumar/i });
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/profile/u7', '/profile/u7']);
    await act(async () => links[0]!.click());
    await vi.waitFor(() => expect(window.location.pathname).toBe('/profile/u7'));
  });

  it('an @name the server did not resolve stays text', () => {
    renderWith(<PostCard postId="p1" />, {}, 'hello @Nobody and @ravikumar', [{ id: 'u7', handle: 'ravikumar' }]);
    expect(screen.queryByRole('link', { name: '@Nobody' })).toBeNull();
    expect(document.querySelector('.post-card__content')!.textContent).toContain('hello @Nobody and @ravikumar');
    expect(screen.getByRole('link', { name: '@ravikumar' }).getAttribute('href')).toBe('/profile/u7');
  });
});

describe('@names in messages (no resolved mentions)', () => {
  function renderText(text: string, routes: Parameters<typeof installFakeFetch>[0]) {
    installFakeFetch(routes);
    localStorage.setItem('campus.token', 'tok');
    const store = createStore();
    render(
      <Provider store={store}>
        <p>
          <RichText text={text} />
        </p>
      </Provider>,
    );
    return store;
  }

  it('an @name opens that profile when search finds them', async () => {
    renderText('thanks @RaviKumar!', { '/api/search': () => ok({ results: [{ type: 'user', id: 'u7', title: 'Ravi Kumar', subtitle: '' }] }) });
    await act(async () => screen.getByRole('link', { name: '@RaviKumar' }).click());
    await vi.waitFor(() => expect(window.location.pathname).toBe('/profile/u7'));
  });

  it('an @name links to the search deep link, then to the profile once pointed at', async () => {
    renderText('ask @MeeraIyer about #exams', {
      '/api/search': () => ok({ results: [{ type: 'user', id: 'u8', title: 'Meera Iyer', subtitle: '' }, { type: 'post', id: 'p5', title: 'Meera Iyer', subtitle: '' }] }),
    });
    const mention = screen.getByRole('link', { name: '@MeeraIyer' });
    expect(mention.getAttribute('href')).toBe('/search?q=MeeraIyer');
    expect(screen.getByRole('link', { name: '#exams' }).getAttribute('href')).toBe('/tags/exams');
    fireEvent.pointerEnter(mention);
    await vi.waitFor(() => expect(mention.getAttribute('href')).toBe('/profile/u8'));
  });

  it('an @name that names nobody keeps the search link and opens search', async () => {
    const store = renderText('hello @Nobody', { '/api/search': () => ok({ results: [] }) });
    const mention = screen.getByRole('link', { name: '@Nobody' });
    await act(async () => mention.click());
    await vi.waitFor(() => expect(store.get(searchOpenAtom)).toBe(true));
    expect(store.get(searchQueryAtom)).toBe('Nobody');
    expect(mention.getAttribute('href')).toBe('/search?q=Nobody');
  });
});

describe('editing own post', () => {
  it('edits through a dialog and shows the "edited" marker', async () => {
    let sent: unknown;
    const { fetchMock } = renderWith(<PostCard postId="p1" />, {
      '/api/posts/p1': (init) => {
        sent = JSON.parse(String(init?.body));
        return ok({ post: { ...makePost({ id: 'p1', content: 'Fixed text' }), author: me, createdAt: '2025-01-01T10:00:00Z', updatedAt: '2025-01-01T11:00:00Z' } });
      },
    });
    expect(screen.queryByText('edited')).toBeNull();
    act(() => screen.getByRole('button', { name: 'Post options' }).click());
    act(() => screen.getByRole('menuitem', { name: /Edit post/ }).click());
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const box = within(dialog).getByLabelText('Post text');
    // The dialog's chunk comes in first (lazyParts.ts), then its focus effect.
    await waitFor(() => expect(document.activeElement).toBe(box));
    fireEvent.change(box, { target: { value: 'Fixed text' } });
    await act(async () => within(dialog).getByRole('button', { name: 'Save' }).click());
    expect(sent).toEqual({ content: 'Fixed text' });
    expect(fetchMock.mock.calls.some((c) => (c[1] as RequestInit | undefined)?.method === 'PUT')).toBe(true);
    expect(await screen.findByText('edited')).toBeTruthy();
    expect(screen.getByText('Fixed text')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("offers no Edit on someone else's post", () => {
    const fetchMock = installFakeFetch({});
    void fetchMock;
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: me }));
    const store = createStore();
    store.set(upsertPostsAtom, [makePost({ id: 'p2', author: { id: 'u9', name: 'Zoya', avatar: { url: '' }, role: 'student', universityId: '' } })]);
    render(
      <Provider store={store}>
        <PostCard postId="p2" />
      </Provider>,
    );
    act(() => screen.getByRole('button', { name: 'Post options' }).click());
    expect(screen.queryByRole('menuitem', { name: /Edit post/ })).toBeNull();
  });
});

describe('multi-line comments', () => {
  it('Shift+Enter adds a line, Enter sends the whole text', async () => {
    let sent: unknown;
    renderWith(<Comments postId="p1" initial={[]} />, {
      '/api/posts/p1/comments': (init) => {
        sent = JSON.parse(String(init?.body));
        return ok({ comment: { id: 'c1', postId: 'p1', content: (sent as { content: string }).content, user: me, createdAt: '2025-01-01T12:00:00Z' }, commentsCount: 3 });
      },
    });
    const box = screen.getByLabelText('Write a comment');
    expect(box.tagName).toBe('TEXTAREA');
    fireEvent.change(box, { target: { value: 'line one' } });
    expect(fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })).toBe(true); // not prevented: the newline goes in
    expect(sent).toBeUndefined();
    fireEvent.change(box, { target: { value: 'line one\nline two' } });
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    await vi.waitFor(() => expect(sent).toEqual({ content: 'line one\nline two' }));
  });
});
