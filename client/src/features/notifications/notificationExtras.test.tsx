// Issue 16 #5: which post a notification is about, Accept on a friend
// request, and the unread count in the tab title.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { postHint } from './NotificationExtras';
import { NotificationsPanel } from './NotificationsPanel';
import { openNotificationsPanelAtom } from './notificationsAtoms';

const ok = (data: unknown) => json({ status: 'success', data });
const ravi = { id: 'u2', name: 'Ravi Kumar', avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/20/9' };

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('notification extras', () => {
  it('hints which post: its first words, or "your photo"', () => {
    expect(postHint('  Robotics   demo day\nat 5 ', 0)).toBe('“Robotics demo day at 5”');
    expect(postHint('x'.repeat(80), 0)).toBe(`“${'x'.repeat(60)}…”`);
    expect(postHint('', 2)).toBe('your photo');
    expect(postHint('', 0)).toBe('');
  });

  it('shows the post under a like, and accepts a friend request in place', async () => {
    const fetchMock = installFakeFetch({
      '/api/notifications': () =>
        ok({
          notifications: [
            { id: 'n1', type: 'friend_request', message: 'Ravi Kumar sent you a friend request', sender: ravi, createdAt: new Date().toISOString(), isRead: false },
            { id: 'n2', type: 'like', message: 'Ravi Kumar liked your post', sender: ravi, post: { id: 'p9' }, createdAt: new Date().toISOString(), isRead: false },
          ],
          pagination: { unreadCount: 2, nextCursor: null, limit: 20 },
        }),
      '/api/posts/p9': () => ok({ post: { id: 'p9', content: 'Robotics demo day at 5', author: ravi, createdAt: '2025-01-01T10:00:00Z' } }),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [{ id: 'r1', sender: ravi, receiver: { id: 'u1', name: 'Asha' }, status: 'pending' }] }),
      '/api/friends/accept-request/r1': () => ok({ friendRequest: { id: 'r1', status: 'accepted' } }),
    });
    localStorage.setItem('campus.token', 'tok');
    const store = createStore();
    render(
      <Provider store={store}>
        <NotificationsPanel />
      </Provider>,
    );
    act(() => store.set(openNotificationsPanelAtom, true));
    const list = await screen.findByRole('list', { name: 'Notifications list' });
    expect(await within(list).findByText('“Robotics demo day at 5”')).toBeTruthy();
    const accept = await within(list).findByRole('button', { name: 'Accept' });
    await act(async () => accept.click());
    await vi.waitFor(() => expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('/friends/accept-request/r1'))).toBe(true));
    expect(await within(list).findByText('Accepted')).toBeTruthy();
  });
});
