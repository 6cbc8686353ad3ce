import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigateAtom, routeAtom } from '../../lib/navigation';
import { installFakeFetch, json, type Route } from '../../test/fakeFetch';
import { installFakeXhr } from '../../test/fakeXhr';
import { Toaster } from '../../ui/Toaster';
import { currentUserAtom } from '../auth/authAtoms';
import { MSG_PROFILE_SUSPENDED, ProfilePage } from './ProfilePage';

const ok = (data: unknown) => json({ status: 'success', data });
const fail = (message: string, status: number) => json({ status: 'error', message }, status);
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

const me = { id: 'u1', name: 'Asha Rao', email: 'asha@uni.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const other = {
  id: 'u2',
  name: 'Ravi Kumar',
  role: 'student',
  universityId: 'BWU/BSC/22/7',
  avatar: { url: '' },
  coverPhoto: { url: '' },
  bio: 'Chess and chai.',
  location: 'Kolkata',
  profileLikes: ['u9'],
  likesCount: 1,
  postsCount: 0,
  friendsCount: 1,
  education: { degree: 'B.Sc.', institution: 'BWU', years: '2022 - 2025' },
  skills: [{ name: 'Go', proficiency: 70 }],
  achievements: [{ title: 'Chess champion', description: 'State level', year: '2023' }],
  interests: ['Chess', 'Tea'],
};
const ownProfile = { ...me, bio: '', location: '', profileLikes: [], postsCount: 0, friendsCount: 0, education: {}, skills: [], achievements: [], interests: [] };

function setup(routes: Record<string, Route>, userId?: string) {
  const fetchMock = installFakeFetch({
    '/api/posts/user/u2': () => ok({ posts: [], nextCursor: null }),
    '/api/posts/user/u1': () => ok({ posts: [], nextCursor: null }),
    '/api/friends/user-friends/u2': () => ok({ friends: [{ id: 'u3', name: 'Zoya Khan', universityId: 'BWU/BSC/22/9', role: 'student' }] }),
    '/api/friends/friends-list': () => ok({ friends: [] }),
    '/api/friends/check/u2': () => ok({ isFriend: false, requestSent: false, requestReceived: false }),
    '/api/profile/me': () => ok(ownProfile),
    '/api/profile/u2': () => ok(other),
    ...routes,
  });
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: me }));
  const store = createStore();
  if (userId) store.set(navigateAtom, { page: 'profile', userId });
  render(
    <Provider store={store}>
      <ProfilePage />
      <Toaster />
    </Provider>,
  );
  return { store, fetchMock };
}

const tile = (label: string) => screen.getByText(label, { selector: '.profile-stat__label' }).closest('.profile-stat') as HTMLElement;
const tileValue = (label: string) => within(tile(label)).getByText(/./, { selector: '.profile-stat__value' }).textContent;

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => cleanup());

describe('ProfilePage (docs/product.md §2.14)', () => {
  it("shows 'Loading profile...' then another user's header, tiles and tabs", async () => {
    let release: () => void = () => {};
    setup({ '/api/profile/u2': () => new Promise<Response>((r) => (release = () => r(ok(other)))) }, 'u2');
    expect(screen.getByText('Loading profile...')).toBeTruthy();
    act(() => release());
    expect(await screen.findByRole('heading', { name: 'Ravi Kumar', level: 1 })).toBeTruthy();
    expect(screen.getByText('Student')).toBeTruthy();
    expect(screen.getByText('BWU/BSC/22/7')).toBeTruthy();
    expect(screen.getByText('Chess and chai.')).toBeTruthy();
    expect(tileValue('Year')).toBe('2022');
    expect(tileValue('Likes')).toBe('1');
    expect(tileValue('Friends')).toBe('1');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Memories', 'Collections', 'Friends', 'About']);
    // Memories is the default; the other user's empty wording.
    expect(await screen.findByText('No memories shared yet')).toBeTruthy();
    expect(screen.getByText("This user hasn't shared any memories yet.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share Your First Memory' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Profile' })).toBeNull();

    // Tiles switch tabs: Friends → friends, Year → about; the tab is remembered.
    act(() => tile('Friends').click());
    expect(screen.getByRole('heading', { name: /^Friends/ })).toBeTruthy();
    expect(await screen.findByText('Zoya Khan')).toBeTruthy();
    expect(localStorage.getItem('campus.profileTab')).toBe('friends');
    fireEvent.change(screen.getByPlaceholderText('Search friends...'), { target: { value: 'bsc/22/9' } });
    expect(screen.getByText('Zoya Khan')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search friends...'), { target: { value: 'nobody' } });
    expect(screen.getByText('No results found')).toBeTruthy();
    expect(screen.getByText('Try a different search term')).toBeTruthy();

    act(() => tile('Year').click());
    const about = screen.getByRole('tabpanel');
    expect(within(about).getByText('B.Sc.')).toBeTruthy();
    expect(within(about).getByText('Achievements & Awards')).toBeTruthy();
    expect(within(about).getByText('Hobbies & Interests')).toBeTruthy();
    expect(within(about).getByRole('progressbar', { name: 'Go proficiency' }).getAttribute('aria-valuenow')).toBe('70');

    act(() => tile('Memories').click());
    expect(localStorage.getItem('campus.profileTab')).toBe('memories');
  });

  it('marks a suspended account, which only a moderator still sees (issue 31)', async () => {
    setup({ '/api/profile/u2': () => ok({ ...other, suspended: true }) }, 'u2');
    await screen.findByRole('heading', { name: 'Ravi Kumar', level: 1 });
    expect(screen.getByText(MSG_PROFILE_SUSPENDED)).toBeTruthy();
    cleanup();
    setup({}, 'u2');
    await screen.findByRole('heading', { name: 'Ravi Kumar', level: 1 });
    expect(screen.queryByText(MSG_PROFILE_SUSPENDED)).toBeNull();
  });

  it("shows 'Profile not found' when the load fails", async () => {
    setup({ '/api/profile/u2': () => fail('User not found', 404) }, 'u2');
    expect(await screen.findByRole('heading', { name: 'Profile not found' })).toBeTruthy();
  });

  it('Connect → Sending... → Request Sent', async () => {
    let release: () => void = () => {};
    let requested = false;
    const { fetchMock } = setup(
      {
        '/api/friends/check/u2': () => ok({ isFriend: false, requestSent: requested, requestReceived: false }),
        '/api/friends/send-request': (init) => {
          requested = true;
          expect(body(init)).toEqual({ receiverId: 'u2' });
          return new Promise<Response>((r) => {
            release = () => r(ok({ friendRequest: { id: 'r1', status: 'pending', receiver: other } }));
          });
        },
      },
      'u2',
    );
    const connect = await screen.findByRole('button', { name: 'Connect' });
    act(() => connect.click());
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeTruthy();
    await act(async () => release());
    const sent = await screen.findByRole('button', { name: 'Request Sent' });
    expect((sent as HTMLButtonElement).disabled).toBe(true);
    expect(fetchMock.mock.calls.filter((c) => String(c[0]).includes('send-request'))).toHaveLength(1);
  });

  it("reads 'Connected' for a friend; the friend action unfriends ('Removing...') and refreshes the friends", async () => {
    let release: () => void = () => {};
    let friends = true;
    const { fetchMock } = setup(
      {
        '/api/friends/check/u2': () => ok({ isFriend: friends, requestSent: friends, requestReceived: false }),
        '/api/friends/unfriend/u2': () =>
          new Promise<Response>((r) => {
            release = () => {
              friends = false;
              r(ok({ message: 'ok' }));
            };
          }),
      },
      'u2',
    );
    const connected = await screen.findByRole('button', { name: 'Connected' });
    act(() => connected.click());
    act(() => within(screen.getByRole('dialog', { name: 'Unfriend Ravi Kumar?' })).getByRole('button', { name: 'Unfriend' }).click());
    expect(await screen.findByRole('button', { name: 'Removing...' })).toBeTruthy();
    const before = fetchMock.mock.calls.filter((c) => String(c[0]).includes('user-friends')).length;
    await act(async () => release());
    expect(await screen.findByRole('button', { name: 'Connect' })).toBeTruthy();
    await waitFor(() => expect(fetchMock.mock.calls.filter((c) => String(c[0]).includes('user-friends')).length).toBeGreaterThan(before));
  });

  it('likes optimistically and ignores a failed call', async () => {
    const { store } = setup({ '/api/profile/u2/like': () => fail('boom', 500) }, 'u2');
    const like = await screen.findByRole('button', { name: "Like Ravi Kumar's profile" });
    await act(async () => like.click());
    expect(tileValue('Likes')).toBe('2');
    expect(screen.getByRole('button', { name: "Unlike Ravi Kumar's profile" }).getAttribute('aria-pressed')).toBe('true');
    expect(JSON.parse(localStorage.getItem('campus.userProfileLikes') ?? '{}')).toEqual({ 'u1:u2': true });
    expect(JSON.parse(localStorage.getItem('campus.profileLikes') ?? '{}')).toEqual({ u2: 2 });
    expect(store.get(routeAtom)).toEqual({ page: 'profile', userId: 'u2' });
  });

  it('own profile: empty states, Edit Profile with Saving..., and the signed-in user updated', async () => {
    let release: () => void = () => {};
    const { store } = setup({
      '/api/profile': (init) => {
        const b = body(init);
        expect(b.interests).toEqual(['Chess', 'Robotics']);
        expect(b.skills).toEqual([{ name: 'Python', proficiency: 50 }]);
        expect(b.achievements).toEqual([{ title: 'Hackathon', description: '', year: '2024' }]);
        return new Promise<Response>(
          (r) => (release = () => r(ok({ ...ownProfile, name: 'Asha R.', bio: 'Hello', skills: b.skills, achievements: b.achievements, interests: b.interests }))),
        );
      },
    });
    expect(await screen.findByRole('heading', { name: 'Asha Rao', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Start sharing your university moments with friends!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share Your First Memory' })).toBeTruthy();
    expect(tileValue('Year')).toBe('2020');
    act(() => screen.getByRole('tab', { name: 'Collections' }).click());
    expect(await screen.findByText('No Photos Yet')).toBeTruthy();
    expect(screen.getByText('Share posts with photos to see them in your gallery')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Add Photo|Share Your First Photo/ })).toHaveLength(2);
    act(() => screen.getByRole('tab', { name: 'Friends' }).click());
    expect(screen.getByRole('heading', { name: /Your Friends/ })).toBeTruthy();
    expect(await screen.findByText('You have no friends yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Find More Friends/ })).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Edit Profile' }).click());
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    const d = within(dialog);
    expect(d.getByPlaceholderText('Tell others about yourself')).toBeTruthy();
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Asha R.' } });
    fireEvent.change(d.getByLabelText('Bio'), { target: { value: 'Hello' } });
    act(() => d.getByRole('button', { name: '+ Add Skill' }).click());
    fireEvent.change(d.getByLabelText('Skill 1 name'), { target: { value: 'Python' } });
    expect((d.getByLabelText('Skill 1 proficiency') as HTMLInputElement).value).toBe('50');
    act(() => d.getByRole('button', { name: '+ Add Skill' }).click());
    act(() => d.getByRole('button', { name: 'Remove skill 2' }).click());
    act(() => d.getByRole('button', { name: '+ Add Achievement' }).click());
    act(() => d.getByRole('button', { name: '+ Add Achievement' }).click());
    expect(d.getByText('Achievement 2')).toBeTruthy();
    act(() => d.getByRole('button', { name: 'Remove achievement 2' }).click());
    fireEvent.change(d.getByLabelText('Achievement 1 title'), { target: { value: 'Hackathon' } });
    fireEvent.change(d.getByLabelText('Achievement 1 year'), { target: { value: '2024' } });
    fireEvent.change(d.getByLabelText('Hobbies & Interests'), { target: { value: 'Chess, , Robotics' } });
    act(() => d.getByRole('button', { name: 'Save Changes' }).click());
    expect(await d.findByRole('button', { name: 'Saving...' })).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Profile' })).toBeNull());
    expect(screen.getByRole('heading', { name: 'Asha R.', level: 1 })).toBeTruthy();
    expect(store.get(currentUserAtom)?.name).toBe('Asha R.');
    act(() => tile('Year').click());
    expect(screen.getByText('Python')).toBeTruthy();
    expect(screen.getByText('Hackathon')).toBeTruthy();
    expect(screen.getByText('Robotics')).toBeTruthy();
  });

  it('uploads take effect at once and update the signed-in user; a failure says so', async () => {
    const Xhr = installFakeXhr();
    const { store } = setup({});
    await screen.findByRole('heading', { name: 'Asha Rao', level: 1 });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('profile-avatar-input'), { target: { files: [file] } });
    const avatarXhr = Xhr.instances[0]!;
    expect(avatarXhr.url).toBe('/api/profile/avatar');
    expect((avatarXhr.body as FormData).get('avatar')).toBeTruthy();
    await act(async () => avatarXhr.respond(200, { status: 'success', data: { avatar: { url: '/media/new.png', publicId: 'k' } } }));
    expect(store.get(currentUserAtom)?.avatar.url).toBe('/media/new.png');

    fireEvent.change(screen.getByTestId('profile-cover-input'), { target: { files: [file] } });
    await act(async () => Xhr.instances[1]!.respond(500, { status: 'error', message: 'boom' }));
    expect(await screen.findByText('Failed to upload cover photo. Please try again.')).toBeTruthy();
  });
});
