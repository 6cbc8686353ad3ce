import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { FriendsPage, matchesUser } from './FriendsPage';
import { normalizeSuggestions } from './friendsApi';
import {
  cancelRequestAtom,
  friendAcceptedAtom,
  friendRequestReceivedAtom,
  friendshipVersionAtom,
  hasPendingRequestsAtom,
  loadAllFriendsDataAtom,
  loadSuggestionsAtom,
  pendingRequestsCountAtom,
  requestsBadgeAtom,
  sendRequestAtom,
  suggestionsAtom,
  sentRequestsAtom,
} from './friendsAtoms';

const ok = (data: unknown) => json({ status: 'success', data });
const person = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  avatar: { url: '' },
  role: 'student',
  universityId: `BWU/BCA/20/${id}`,
  ...extra,
});
const ravi = person('u2', 'Ravi Kumar');
const meera = person('u3', 'Dr Meera Iyer', { role: 'faculty', universityId: '' });
const zoya = person('u4', 'Zoya Khan');
const omar = person('u5', 'Omar Ali');

function routes(over: Record<string, () => Response | Promise<Response>> = {}) {
  return installFakeFetch({
    '/api/friends/friends-list': () => ok({ friends: [ravi, meera], nextCursor: null }),
    '/api/friends/pending-requests': () =>
      ok({ pendingRequests: [{ id: 'r1', sender: zoya, receiver: person('u1', 'Me'), status: 'pending', createdAt: '' }] }),
    '/api/friends/sent-requests': () =>
      ok({
        sentRequests: [
          { id: 'r2', sender: person('u1', 'Me'), receiver: omar, status: 'pending', createdAt: '' },
          { id: 'r3', sender: person('u1', 'Me'), receiver: ravi, status: 'accepted', createdAt: '' },
        ],
      }),
    '/api/friends/suggestions': () =>
      ok([{ user: person('u6', 'Tara Sen'), mutualFriends: 2 }, { user: { id: 'u7' } }, { user: { name: 'No Id' } }]),
    ...over,
  });
}

function renderPage() {
  const store = createStore();
  render(
    <Provider store={store}>
      <FriendsPage />
    </Provider>,
  );
  return store;
}

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => cleanup());

describe('friends data', () => {
  it('only suggestions with both id and name are usable', () => {
    expect(normalizeSuggestions([{ user: { id: 'a', name: 'A' } }, { user: { id: 'b' } }, { id: 'c', name: 'C' }]).map((s) => s.user.id)).toEqual([
      'a',
      'c',
    ]);
  });

  it('searches name or university ID, case-insensitive', () => {
    expect(matchesUser(ravi, 'RAVI')).toBe(true);
    expect(matchesUser(ravi, 'bca/20/u2')).toBe(true);
    expect(matchesUser(ravi, 'zoya')).toBe(false);
  });

  it('badges: received plus pending sent; usable suggestions', async () => {
    routes();
    const store = createStore();
    await store.set(loadAllFriendsDataAtom);
    expect(store.get(requestsBadgeAtom)).toBe(2);
    expect(store.get(pendingRequestsCountAtom)).toBe(1);
    expect(store.get(suggestionsAtom)?.map((s) => s.user.name)).toEqual(['Tara Sen']);
  });

  it('sending to a suggestion removes it and adds a pending sent request', async () => {
    routes({
      '/api/friends/send-request': () =>
        ok({ friendRequest: { id: 'r9', sender: person('u1', 'Me'), receiver: person('u6', 'Tara Sen'), status: 'pending' } }),
    });
    const store = createStore();
    await store.set(loadAllFriendsDataAtom);
    const v = store.get(friendshipVersionAtom);
    await store.set(sendRequestAtom, store.get(suggestionsAtom)![0]!.user);
    expect(store.get(suggestionsAtom)).toEqual([]);
    expect(store.get(sentRequestsAtom)?.map((r) => r.id)).toEqual(['r9', 'r2']);
    expect(store.get(requestsBadgeAtom)).toBe(3);
    expect(store.get(friendshipVersionAtom)).toBe(v + 1);
  });

  it('a live friend request turns the buttons red at once; an acceptance re-reads', async () => {
    const fetchMock = routes({ '/api/friends/pending-requests': () => ok({ pendingRequests: [] }) });
    const store = createStore();
    expect(store.get(hasPendingRequestsAtom)).toBe(false);
    store.set(friendRequestReceivedAtom);
    expect(store.get(hasPendingRequestsAtom)).toBe(true);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const v = store.get(friendshipVersionAtom);
    store.set(friendAcceptedAtom);
    expect(store.get(friendshipVersionAtom)).toBe(v + 1);
  });
});

describe('FriendsPage (docs/product.md §2.15)', () => {
  it('lists friends (Faculty under faculty names); one menu open at a time; outside click closes', async () => {
    routes();
    renderPage();
    expect(screen.getByRole('heading', { name: 'Friends', level: 1 })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Ravi Kumar' })).toBeTruthy();
    expect(screen.getByText('BWU/BCA/20/u2')).toBeTruthy();
    expect(screen.getByText('Faculty')).toBeTruthy();
    expect(await screen.findByLabelText('2 requests')).toBeTruthy();
    expect(screen.getByLabelText('1 suggestions')).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Options for Ravi Kumar' }).click());
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    act(() => {
      fireEvent.mouseDown(screen.getByRole('button', { name: 'Options for Dr Meera Iyer' }));
      screen.getByRole('button', { name: 'Options for Dr Meera Iyer' }).click();
    });
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Options for Dr Meera Iyer' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Options for Ravi Kumar' }).getAttribute('aria-expanded')).toBe('false');
    act(() => {
      fireEvent.mouseDown(document.body);
    });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('unfriends from the menu; search with no match shows the empty state', async () => {
    routes({ '/api/friends/unfriend/u2': () => ok({ message: 'ok' }) });
    renderPage();
    await screen.findByRole('button', { name: 'Options for Ravi Kumar' });
    act(() => screen.getByRole('button', { name: 'Options for Ravi Kumar' }).click());
    act(() => screen.getByRole('menuitem', { name: 'Unfriend' }).click());
    // Asks first (issue 16 #4); Cancel keeps the friend.
    const ask = screen.getByRole('dialog', { name: 'Unfriend Ravi Kumar?' });
    act(() => within(ask).getByRole('button', { name: 'Cancel' }).click());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Ravi Kumar' })).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Options for Ravi Kumar' }).click());
    act(() => screen.getByRole('menuitem', { name: 'Unfriend' }).click());
    await act(async () => within(screen.getByRole('dialog', { name: 'Unfriend Ravi Kumar?' })).getByRole('button', { name: 'Unfriend' }).click());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ravi Kumar' })).toBeNull());
    fireEvent.change(screen.getByLabelText('Search people'), { target: { value: 'nobody' } });
    expect(screen.getByText('No friends found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or check out suggestions')).toBeTruthy();
  });

  it('requests: accept moves the sender into friends; sent requests show only pending ones', async () => {
    routes({ '/api/friends/accept-request/r1': () => ok({ friendRequest: { id: 'r1', status: 'accepted' } }) });
    sessionStorage.setItem('campus.friendsTab', 'requests');
    const store = renderPage();
    expect(sessionStorage.getItem('campus.friendsTab')).toBeNull(); // read once, consumed
    expect(await screen.findByRole('heading', { name: 'Received Requests' })).toBeTruthy();
    expect(await screen.findByText('Pending approval')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Omar Ali' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel request to Ravi Kumar' })).toBeNull(); // accepted: not shown
    await act(async () => screen.getByRole('button', { name: "Accept Zoya Khan's request" }).click());
    expect(await screen.findByText("You don't have any pending friend requests")).toBeTruthy();
    expect(store.get(hasPendingRequestsAtom)).toBe(false);
    act(() => screen.getByRole('tab', { name: /^Friends/ }).click());
    expect(screen.getByRole('button', { name: 'Zoya Khan' })).toBeTruthy();
  });

  it('suggestions: Add Friend removes the suggestion; empty states', async () => {
    routes({
      '/api/friends/send-request': () => ok({ friendRequest: { id: 'r9', receiver: person('u6', 'Tara Sen'), status: 'pending' } }),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
      '/api/friends/sent-requests': () => ok({ sentRequests: [] }),
    });
    sessionStorage.setItem('campus.friendsTab', 'suggestions');
    renderPage();
    expect(await screen.findByRole('heading', { name: 'People you may know' })).toBeTruthy();
    expect(await screen.findByText('2 mutual friends')).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'Add Friend Tara Sen' }).click());
    expect(await screen.findByText('No suggestions found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search criteria')).toBeTruthy();
    act(() => screen.getByRole('tab', { name: /Requests/ }).click());
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('No friend requests')).toBeTruthy();
    expect(within(panel).getByText('Pending approval')).toBeTruthy(); // the request just sent
  });
});

describe('suggestions stay fresh (issue 16 #4)', () => {
  it('cancelling a request reloads the suggestions (the person may be suggested again)', async () => {
    let calls = 0;
    routes({
      '/api/friends/cancel-request/r2': () => ok({ message: 'ok' }),
      '/api/friends/suggestions': () => {
        calls += 1;
        return ok(calls === 1 ? [] : [{ user: person('u5', 'Omar Ali'), mutualFriends: 0 }]);
      },
    });
    localStorage.setItem('campus.token', 'tok');
    const store = createStore();
    await store.set(loadSuggestionsAtom);
    expect(store.get(suggestionsAtom)).toEqual([]);
    await store.set(cancelRequestAtom, { id: 'r2', sender: person('u1', 'Me'), receiver: person('u5', 'Omar Ali'), status: 'pending', createdAt: '' } as never);
    await waitFor(() => expect(store.get(suggestionsAtom)?.map((s) => s.user.name)).toEqual(['Omar Ali']));
  });
});
