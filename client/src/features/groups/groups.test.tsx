// Issue 18, client side: the group page for a non-member of a closed group,
// an admin answering requests, joining from the directory, posting into a
// group, the big screen's live counts, and an invitation accepted from its
// notification. Fetch is faked at the network edge; the store is real.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { routeAtom } from '../../lib/navigation';
import { Toaster } from '../../ui/Toaster';
import { NotificationsPanel } from '../notifications/NotificationsPanel';
import { addNotificationAtom, openNotificationsPanelAtom, setNotificationsAtom } from '../notifications/notificationsAtoms';
import { toAppNotification } from '../notifications/model';
import { applyPostCountsAtom, postAtom } from '../posts/postsAtoms';
import { watchedPostIdsAtom } from '../posts/watchAtoms';
import { GroupInvitationActions } from './GroupInvitationActions';
import { GroupPage } from './GroupPage';
import { GroupsPage } from './GroupsPage';
import { groupAtom, groupFeedAtom, liveAtom, loadLiveAtom, myGroupsAtom } from './groupsAtoms';
import { LiveView } from './LiveView';

const ok = (data: unknown, status = 200) => json({ status: 'success', data }, status);
const fail = (status: number, message: string) => json({ status: 'error', message }, status);

const asha = { id: 'u1', name: 'Asha Rao', avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/20/1' };
const ravi = { id: 'u2', name: 'Ravi Kumar', avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/20/2' };

function group(over: Record<string, unknown> = {}) {
  return {
    id: 'g1',
    handle: 'robotics',
    name: 'Robotics Club',
    description: 'We build robots',
    kind: 'club',
    visibility: 'closed',
    avatarUrl: '',
    coverUrl: '',
    membersCount: 4,
    postsCount: 1,
    createdAt: '2026-01-01T10:00:00Z',
    startsAt: null,
    endsAt: null,
    pinnedPostId: null,
    course: null,
    me: { status: 'none', role: null, followClosely: false },
    ...over,
  };
}

function post(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    content: `Post ${id}`,
    images: [],
    likesCount: 1,
    commentsCount: 0,
    isLiked: false,
    author: ravi,
    createdAt: '2026-01-02T10:00:00Z',
    group: { id: 'g1', handle: 'robotics', name: 'Robotics Club', visibility: 'closed' },
    ...over,
  };
}

function signIn() {
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: asha }));
}

function renderIn(ui: React.ReactNode) {
  const store = createStore();
  render(
    <Provider store={store}>
      {ui}
      <Toaster />
    </Provider>,
  );
  return store;
}

const calls = (m: ReturnType<typeof installFakeFetch>, path: string, method = 'GET') =>
  m.mock.calls.filter((c) => new URL(String(c[0]), 'http://x').pathname === path && ((c[1] as RequestInit | undefined)?.method ?? 'GET') === method);

beforeEach(() => {
  localStorage.clear();
  signIn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('group page', () => {
  it('shows a closed group to a non-member without its posts, and sends a join request', async () => {
    let current = group();
    const fetchMock = installFakeFetch({
      '/api/groups/robotics': () => ok(current),
      '/api/groups/robotics/join': () => {
        current = group({ me: { status: 'requested', role: null, followClosely: false } });
        return ok(current);
      },
      '/api/groups/robotics/posts': () => fail(403, 'Only members of the group can do this.'),
    });
    renderIn(<GroupPage handle="robotics" />);
    expect(await screen.findByRole('heading', { name: 'Robotics Club', level: 1 })).toBeTruthy();
    expect(screen.getByText('This group is closed')).toBeTruthy();
    expect(calls(fetchMock, '/api/groups/robotics/posts')).toHaveLength(0); // not even asked
    expect(screen.queryByRole('tab', { name: 'Requests' })).toBeNull();

    fireEvent.click(screen.getAllByRole('button', { name: 'Request to join' })[0]!);
    await screen.findAllByRole('button', { name: 'Cancel request' });
    expect(calls(fetchMock, '/api/groups/robotics/join', 'POST')).toHaveLength(1);
    expect(screen.getByText('Your request to join is waiting for an admin.')).toBeTruthy();
  });

  it('says "Group not found" for a 404 (a secret group to a stranger)', async () => {
    installFakeFetch({ '/api/groups/hidden': () => fail(404, 'Group not found') });
    renderIn(<GroupPage handle="hidden" />);
    expect(await screen.findByRole('heading', { name: 'Group not found' })).toBeTruthy();
  });

  it('lets an admin approve a join request', async () => {
    const fetchMock = installFakeFetch({
      '/api/groups/robotics': () => ok(group({ me: { status: 'member', role: 'admin', followClosely: false } })),
      '/api/groups/robotics/posts': () => ok({ posts: [post('p1')], nextCursor: null }),
      '/api/groups/robotics/requests': () => ok({ requests: [{ user: ravi, requestedAt: '2026-01-03T10:00:00Z' }], nextCursor: null }),
      '/api/groups/robotics/requests/u2/approve': () => ok({}),
    });
    renderIn(<GroupPage handle="robotics" />);
    await screen.findByText('Post p1');
    fireEvent.click(screen.getByRole('tab', { name: 'Requests' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Ravi Kumar' }));
    await screen.findByText('No one is waiting to join.');
    expect(calls(fetchMock, '/api/groups/robotics/requests/u2/approve', 'POST')).toHaveLength(1);
  });

  it('posts into the group with its id, and the new post tops the group feed', async () => {
    const fetchMock = installFakeFetch({
      '/api/groups/robotics': () => ok(group({ me: { status: 'member', role: 'member', followClosely: false } })),
      '/api/groups/robotics/posts': () => ok({ posts: [post('p1')], nextCursor: null }),
      '/api/posts': () => ok({ post: post('p2', { content: 'Demo day at 5', author: asha }) }, 201),
    });
    const store = renderIn(<GroupPage handle="robotics" />);
    await screen.findByText('Post p1');
    fireEvent.click(screen.getByRole('button', { name: /What's on your mind/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Create post' });
    expect(within(dialog).getByText('Posting in Robotics Club')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Post text'), { target: { value: 'Demo day at 5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post' }));
    await screen.findByText('Demo day at 5');
    const sent = calls(fetchMock, '/api/posts', 'POST')[0]![1] as RequestInit;
    expect(JSON.parse(String(sent.body))).toMatchObject({ content: 'Demo day at 5', groupId: 'g1' });
    expect(store.get(groupFeedAtom('robotics')).ids).toEqual(['p2', 'p1']);
  });

  it('reads the feed again when a close follower is told of a new post in it', async () => {
    let posts = [post('p1')];
    const fetchMock = installFakeFetch({
      '/api/groups/robotics': () => ok(group({ me: { status: 'member', role: 'member', followClosely: true } })),
      '/api/groups/robotics/posts': () => ok({ posts, nextCursor: null }),
    });
    const store = renderIn(<GroupPage handle="robotics" />);
    await screen.findByText('Post p1');
    posts = [post('p2', { content: 'Fresh from Ravi' }), ...posts];
    act(() =>
      store.set(
        addNotificationAtom,
        toAppNotification({ id: 'n5', type: 'group_post', sender: ravi, post: { id: 'p2' }, group: { id: 'g1', handle: 'robotics', name: 'Robotics Club' }, createdAt: new Date().toISOString(), unreadCount: 1 }),
      ),
    );
    await screen.findByText('Fresh from Ravi');
    expect(calls(fetchMock, '/api/groups/robotics/posts')).toHaveLength(2);
    expect(calls(fetchMock, '/api/groups/robotics')).toHaveLength(1);
  });

  it('follows closely and reverts when the server refuses', async () => {
    let refuse = false;
    installFakeFetch({
      '/api/groups/robotics': () => ok(group({ me: { status: 'member', role: 'member', followClosely: false } })),
      '/api/groups/robotics/posts': () => ok({ posts: [], nextCursor: null }),
      '/api/groups/robotics/follow': () => (refuse ? fail(400, 'Nope') : ok({})),
    });
    const store = renderIn(<GroupPage handle="robotics" />);
    const toggle = await screen.findByRole('switch', { name: 'Notify me of every post' });
    fireEvent.click(toggle);
    await waitFor(() => expect(store.get(groupAtom('robotics'))?.me.followClosely).toBe(true));
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    refuse = true;
    fireEvent.click(toggle);
    await screen.findByText('Nope');
    expect(store.get(groupAtom('robotics'))?.me.followClosely).toBe(true);
  });
});

describe("a group's chat", () => {
  it('an admin switches it on in Edit group (at once); members then have Open chat, leading to the conversation', async () => {
    let current: Record<string, unknown> = group({ me: { status: 'member', role: 'admin', followClosely: false }, chatEnabled: false, chatId: null });
    const puts: unknown[] = [];
    installFakeFetch({
      '/api/groups/robotics': () => ok(current),
      '/api/groups/robotics/posts': () => ok({ posts: [], nextCursor: null }),
      '/api/groups/robotics/chat': (init) => {
        const body = JSON.parse(String(init?.body)) as { enabled: boolean };
        puts.push({ method: init?.method, body });
        current = { ...current, chatEnabled: body.enabled, chatId: body.enabled ? 'conv-9' : null };
        return ok({ enabled: body.enabled, conversationId: current.chatId, group: current });
      },
    });
    const store = renderIn(<GroupPage handle="robotics" />);
    await screen.findByRole('heading', { name: 'Robotics Club', level: 1 });
    expect(screen.queryByRole('link', { name: 'Open chat' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit group' });
    const chat = within(dialog).getByRole('switch', { name: 'Group chat' });
    expect(chat.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(chat);
    await waitFor(() => expect(chat.getAttribute('aria-checked')).toBe('true'));
    expect(puts).toEqual([{ method: 'PUT', body: { enabled: true } }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const open = await screen.findByRole('link', { name: 'Open chat' });
    expect(open.getAttribute('href')).toBe('/messages/conv-9');
    fireEvent.click(open);
    expect(store.get(routeAtom)).toEqual({ page: 'conversation', conversationId: 'conv-9' });
  });

  it('has no switch for a member, and no Open chat for someone outside', async () => {
    let me: { status: string; role: string | null; followClosely: boolean } = { status: 'member', role: 'member', followClosely: false };
    installFakeFetch({
      '/api/groups/robotics': () => ok(group({ visibility: 'public', me, chatEnabled: true, chatId: me.status === 'member' ? 'conv-9' : null })),
      '/api/groups/robotics/posts': () => ok({ posts: [], nextCursor: null }),
    });
    renderIn(<GroupPage handle="robotics" />);
    expect(await screen.findByRole('link', { name: 'Open chat' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit group' })).toBeNull();
    cleanup();
    me = { status: 'none', role: null, followClosely: false };
    renderIn(<GroupPage handle="robotics" />);
    await screen.findByRole('heading', { name: 'Robotics Club', level: 1 });
    expect(screen.queryByRole('link', { name: 'Open chat' })).toBeNull();
  });
});

describe('groups directory', () => {
  it('shows my groups and suggestions with their reason; joining moves a group to mine', async () => {
    const club = group({ id: 'g2', handle: 'chess', name: 'Chess Club', visibility: 'public' });
    let joined = false;
    installFakeFetch({
      '/api/groups/mine': () => ok({ groups: joined ? [{ ...club, me: { status: 'member', role: 'member', followClosely: false } }] : [], nextCursor: null }),
      '/api/groups/suggestions': () => ok([{ group: club, reason: '3 friends are members' }]),
      '/api/groups': () => ok({ groups: [club, group()], nextCursor: null }),
      '/api/groups/chess/join': () => {
        joined = true;
        return ok({ ...club, membersCount: 5, me: { status: 'member', role: 'member', followClosely: false } });
      },
    });
    const store = renderIn(<GroupsPage />);
    expect(await screen.findByText('3 friends are members')).toBeTruthy();
    expect(await screen.findByText("You haven't joined any groups yet.")).toBeTruthy();
    const suggested = screen.getByRole('list', { name: 'Suggested for you' });
    fireEvent.click(within(suggested).getByRole('button', { name: 'Join group: Chess Club' }));
    await screen.findByText('You joined Chess Club');
    expect(store.get(myGroupsAtom)?.map((g) => g.handle)).toEqual(['chess']);
    // A group I joined is no longer suggested.
    await waitFor(() => expect(screen.queryByText('3 friends are members')).toBeNull());
  });
});

describe('big screen', () => {
  it('shows the pinned post and hot posts, watches them, and moves counts live', async () => {
    const fetchMock = installFakeFetch({
      '/api/groups/fest/live': () =>
        ok({
          group: group({ handle: 'fest', name: 'Tech Fest', kind: 'event', visibility: 'public', startsAt: '2026-03-12T10:00:00Z', endsAt: '2026-03-12T18:00:00Z' }),
          pinned: post('p0', { content: 'Welcome to Tech Fest' }),
          // The pinned post also ranks: it shows once.
          hot: [post('p1', { likesCount: 7 }), post('p0', { content: 'Welcome to Tech Fest' }), post('p2', { likesCount: 3 })],
        }),
    });
    const store = renderIn(<LiveView handle="fest" />);
    expect(await screen.findByRole('heading', { name: 'Tech Fest', level: 1 })).toBeTruthy();
    expect(screen.getByText('Welcome to Tech Fest')).toBeTruthy();
    const hot = screen.getByRole('list');
    expect(within(hot).getAllByRole('article').map((a) => a.getAttribute('data-post-id'))).toEqual(['p1', 'p2']);
    expect([...store.get(watchedPostIdsAtom)].sort()).toEqual(['p0', 'p1', 'p2']);

    const likes = () => within(screen.getByRole('article', { name: 'Number 1' })).getByTestId('live-likes');
    expect(likes().textContent).toBe('7');
    act(() => store.set(applyPostCountsAtom, [{ postId: 'p1', likesCount: 8, commentsCount: 2 }]));
    expect(likes().textContent).toBe('8');
    expect(likes().className).toContain('is-bumped');
    expect(store.get(postAtom('p1'))?.commentsCount).toBe(2);

    // The order comes again from the server.
    await act(() => store.set(loadLiveAtom, 'fest'));
    expect(calls(fetchMock, '/api/groups/fest/live')).toHaveLength(2);
    expect(store.get(liveAtom('fest')).hotIds).toEqual(['p1', 'p2']);
  });

  it('asks for the order again every 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = installFakeFetch({
        '/api/groups/fest/live': () => ok({ group: group({ handle: 'fest', name: 'Tech Fest' }), pinned: null, hot: [] }),
      });
      renderIn(<LiveView handle="fest" />);
      await screen.findByText(/No posts yet/);
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      await waitFor(() => expect(calls(fetchMock, '/api/groups/fest/live')).toHaveLength(2));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('group notifications', () => {
  it('accepts an invitation from its row, and opens the group from the others', async () => {
    const fetchMock = installFakeFetch({
      '/api/notifications': () => ok({ notifications: [], pagination: { unreadCount: 0, nextCursor: null } }),
      '/api/groups/secret-society/join': () => ok(group({ handle: 'secret-society', name: 'Secret Society', visibility: 'secret', me: { status: 'member', role: 'member', followClosely: false } })),
    });
    const store = renderIn(<NotificationsPanel InvitationActions={GroupInvitationActions} />);
    const g = { id: 'g9', handle: 'secret-society', name: 'Secret Society' };
    act(() => {
      store.set(setNotificationsAtom, [
        toAppNotification({ id: 'n1', type: 'group_invitation', sender: ravi, group: g, createdAt: new Date().toISOString(), unreadCount: 1 }),
        toAppNotification({ id: 'n2', type: 'group_join_approved', group: g, createdAt: new Date().toISOString(), unreadCount: 1 }),
      ]);
      store.set(openNotificationsPanelAtom, true);
    });
    const list = await screen.findByRole('list', { name: 'Notifications list' });
    expect(within(list).getByText('Ravi Kumar invited you to join Secret Society')).toBeTruthy();
    expect(within(list).getByText('Your request to join Secret Society was approved')).toBeTruthy();
    fireEvent.click(await within(list).findByRole('button', { name: 'Accept invitation to Secret Society' }));
    expect(await within(list).findByText('Joined')).toBeTruthy();
    expect(calls(fetchMock, '/api/groups/secret-society/join', 'POST')).toHaveLength(1);
    expect(store.get(groupAtom('secret-society'))?.me.status).toBe('member');
  });
});
