import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeAtom } from '../../lib/navigation';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { SearchPanel } from './SearchPanel';
import { normalizeResults, resultTarget, search } from './searchApi';
import { searchOpenAtom, setSearchOpenAtom, shouldSearch, SEARCH_DEBOUNCE_MS } from './searchAtoms';

const ok = (data: unknown) => json({ status: 'success', data });

const results = [
  { type: 'user', id: 'u2', title: 'Nila Das', subtitle: 'BWU/BSC/21/2', avatar: { url: '' }, url: '/profile/u2' },
  { type: 'post', id: 'p1', title: 'Robotics demo day', subtitle: 'Kiran Mehta', avatar: '', url: '/post/p1' },
  { type: 'comment', id: 'c1', title: 'Count me in!', subtitle: 'on Robotics demo day', avatar: '', url: '/post/p1' },
];

function renderPanel() {
  const store = createStore();
  render(
    <Provider store={store}>
      <SearchPanel />
    </Provider>,
  );
  act(() => store.set(setSearchOpenAtom, true));
  return store;
}

function type(value: string) {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search Campus' }), { target: { value } });
}

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('search rules (docs/product.md §2.10, §5, §9)', () => {
  it('searches from 2 characters; blank clears with no call', async () => {
    expect(shouldSearch('a')).toBe(false);
    expect(shouldSearch(' a ')).toBe(false);
    expect(shouldSearch('ab')).toBe(true);
    const fetchMock = installFakeFetch({});
    expect(await search('   ')).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('failures yield empty results silently', async () => {
    installFakeFetch({ '/api/search': () => json({ status: 'error', message: 'boom' }, 500) });
    expect(await search('robot')).toEqual([]);
  });

  it('normalizes results and knows where each leads', () => {
    const list = normalizeResults({
      results: [
        ...results,
        { type: 'group', id: 'g1', title: 'Chess Club', url: '/g/chess-club' },
        { type: 'tag', id: 'chess', title: '#chess', url: '/tags/chess' },
        { type: 'place', id: 'x' },
        { type: 'user' },
      ],
    });
    expect(list.map((r) => r.type)).toEqual(['user', 'post', 'comment', 'group', 'tag']);
    expect(resultTarget(list[0]!)).toEqual({ page: 'profile', userId: 'u2' });
    expect(resultTarget(list[1]!)).toEqual({ page: 'post', postId: 'p1' });
    expect(resultTarget(list[2]!)).toEqual({ page: 'post', postId: 'p1' });
    expect(resultTarget(list[3]!)).toEqual({ page: 'group', handle: 'chess-club' });
    expect(resultTarget(list[4]!)).toEqual({ page: 'tag', tag: 'chess' });
  });
});

describe('SearchPanel', () => {
  it('debounces typing, then shows type, title and subtitle; a click navigates and closes', async () => {
    const fetchMock = installFakeFetch({ '/api/search': () => ok({ results }) });
    const store = renderPanel();
    expect(screen.getByRole('searchbox', { name: 'Search Campus' }).getAttribute('placeholder')).toBe('Search Campus...');
    type('n');
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 50));
    expect(fetchMock).not.toHaveBeenCalled(); // under 2 characters
    type('ni');
    type('nil');
    type('nila');
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 50));
    expect(fetchMock).not.toHaveBeenCalled(); // still typing
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toContain('q=nila');
    const user = await screen.findByRole('button', { name: /Nila Das/ });
    expect(user.textContent).toContain('User');
    expect(user.textContent).toContain('BWU/BSC/21/2');
    expect(screen.getByRole('button', { name: /Robotics demo day.*Post/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Count me in!.*Comment/ })).toBeTruthy();
    // Avatar 32 in the overlay (docs/product.md §9).
    expect((user.querySelector('.avatar') as HTMLElement).style.width).toBe('32px');
    act(() => user.click());
    expect(store.get(searchOpenAtom)).toBe(false);
    expect(store.get(routeAtom)).toEqual({ page: 'profile', userId: 'u2' });
    expect(sessionStorage.getItem('campus.viewedUserId')).toBe('u2');
  });

  it('shows groups and tags with their kind; a tag opens its page', async () => {
    installFakeFetch({
      '/api/search': () =>
        ok({
          results: [
            { type: 'group', id: 'g1', title: 'Chess Club', subtitle: 'Club · Public · 12 members', avatar: '', url: '/g/chess-club' },
            { type: 'tag', id: 'chess', title: '#chess', subtitle: '12 posts', avatar: '', url: '/tags/chess' },
          ],
        }),
    });
    const store = renderPanel();
    type('chess');
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 50));
    const group = await screen.findByRole('button', { name: /Chess Club.*Group/ });
    expect(group.textContent).toContain('Club · Public · 12 members');
    const tag = screen.getByRole('button', { name: /#chess.*12 posts.*Tag/ });
    expect(tag.querySelector('.avatar')).toBeNull(); // a '#' instead of an avatar
    act(() => tag.click());
    expect(store.get(searchOpenAtom)).toBe(false);
    expect(store.get(routeAtom)).toEqual({ page: 'tag', tag: 'chess' });
  });

  it('shows what it is given while nothing is typed, and not while searching', async () => {
    installFakeFetch({ '/api/search': () => ok({ results: [] }) });
    const store = createStore();
    const Idle = ({ close }: { close: () => void }) => (
      <button type="button" className="search-result" onClick={close}>
        Trending thing
      </button>
    );
    render(
      <Provider store={store}>
        <SearchPanel Idle={Idle} />
      </Provider>,
    );
    act(() => store.set(setSearchOpenAtom, true));
    const idle = screen.getByRole('button', { name: 'Trending thing' });
    // The arrow keys reach it from the field.
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search Campus' }), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(idle);
    type('ab');
    expect(screen.queryByRole('button', { name: 'Trending thing' })).toBeNull();
    type('');
    act(() => screen.getByRole('button', { name: 'Trending thing' }).click());
    expect(store.get(searchOpenAtom)).toBe(false);
  });

  it('says when nothing was found', async () => {
    installFakeFetch({ '/api/search': () => ok({ results: [] }) });
    renderPanel();
    type('zzqx');
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 50));
    expect(await screen.findByText('No results found for "zzqx"')).toBeTruthy();
  });
});

describe('keyboard (issue 16 #7)', () => {
  it('reaches the results with the arrow keys and back to the field', async () => {
    installFakeFetch({ '/api/search': () => ok({ results }) });
    renderPanel();
    const box = screen.getByRole('searchbox', { name: 'Search Campus' });
    expect(document.activeElement).toBe(box);
    type('robot');
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 10));
    const first = await screen.findByRole('button', { name: /Nila Das/ });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getAllByRole('button', { name: /Robotics demo day/ })[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(box);
  });
});
