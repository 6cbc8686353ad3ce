// Issue 31: "Suspend author" must not lose the reported item. The queue links
// every item to where it is (moderators still open what is hidden from
// everyone else), and after a suspension the author's items stay, marked.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeAtom } from '../../lib/navigation';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { Toaster } from '../../ui/Toaster';
import { ModerationPage } from './ModerationPage';

const ok = (data: unknown) => json({ status: 'success', data });

const author = { id: 'u2', name: 'Spammy Sam' };
const items = [
  { itemType: 'post', itemId: 'p1', content: 'buy now', author, reports: 2, reasons: ['spam'], details: [], removed: false, suspended: false },
  { itemType: 'comment', itemId: 'c1', postId: 'p9', content: 'buy more', author, reports: 1, reasons: ['spam'], details: [], removed: false, suspended: false },
  { itemType: 'profile', itemId: 'u3', content: 'a bad bio', author: { id: 'u3', name: 'Other Olga' }, reports: 1, reasons: ['hate'], details: [], removed: false, suspended: false },
];

function setup() {
  const fetchMock = installFakeFetch({
    '/api/safety/capabilities': () => ok({ moderator: true, admin: false }),
    '/api/moderation/queue': () => ok({ items, nextCursor: null }),
    '/api/moderation/users/u2/suspend': () => ok({ message: 'Account suspended', reports: 0 }),
  });
  localStorage.setItem('campus.token', 'tok');
  const store = createStore();
  render(
    <Provider store={store}>
      <ModerationPage />
      <Toaster />
    </Provider>,
  );
  return { store, fetchMock };
}

const card = (label: RegExp) => screen.getByRole('article', { name: label });

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/moderation');
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => cleanup());

describe('moderation queue', () => {
  it('links each item to where it is, and opens it in the app', async () => {
    const { store } = setup();
    await screen.findByText('buy now');
    expect(within(card(/^post by Spammy Sam/)).getByRole('link', { name: 'Open post' }).getAttribute('href')).toBe('/post/p1');
    expect(within(card(/^comment by Spammy Sam/)).getByRole('link', { name: 'Open the post' }).getAttribute('href')).toBe('/post/p9');
    expect(within(card(/^profile by Other Olga/)).getByRole('link', { name: 'Open profile' }).getAttribute('href')).toBe('/profile/u3');
    fireEvent.click(within(card(/^post by Spammy Sam/)).getByRole('link', { name: 'Open post' }));
    expect(store.get(routeAtom)).toEqual({ page: 'post', postId: 'p1' });
  });

  it('keeps the suspended author\'s items, marked, with their links', async () => {
    const { fetchMock } = setup();
    await screen.findByText('buy now');
    fireEvent.click(within(card(/^post by Spammy Sam/)).getByRole('button', { name: 'Suspend author' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Spam' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/moderation/users/u2/suspend'))).toBe(true);
    for (const label of [/^post by Spammy Sam/, /^comment by Spammy Sam/]) {
      const c = card(label);
      expect(within(c).getByText('suspended')).toBeTruthy();
      expect(within(c).getByRole('link')).toBeTruthy();
      expect(within(c).queryByRole('button', { name: 'Suspend author' })).toBeNull();
    }
    // Another author's item is untouched.
    expect(within(card(/^profile by Other Olga/)).queryByText('suspended')).toBeNull();
  });
});
