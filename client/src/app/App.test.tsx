import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { searchOpenAtom, searchQueryAtom } from '../features/search/searchAtoms';
import { handleUnauthorized } from '../api/http';
import { setRedirect } from '../lib/redirect';
import { installFakeFetch, json, type Route } from '../test/fakeFetch';
import { installFakeMatchMedia } from '../test/fakeMatchMedia';
import { FakeWebSocket } from '../test/fakeWebSocket';
import { App, unreadTitle } from './App';
import { badgeText } from './TopBar';

const ok = (data: unknown, status = 200) => json({ status: 'success', data }, status);
const fail = (message: string, status: number) => json({ status: 'error', message }, status);
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

const user = { id: 'u1', name: 'Asha Rao', email: 'asha@uni.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const config = () => ok({ productName: 'Riverside', supportEmail: 'help@riverside.edu' });
const emptyFeed = () => ok({ posts: [], nextCursor: null });

let redirects: string[];
let restoreRedirect: () => void;

function renderApp() {
  const store = createStore();
  render(
    <Provider store={store}>
      <App />
    </Provider>,
  );
  return store;
}

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function signedIn() {
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user }));
}

beforeEach(() => {
  localStorage.clear();
  document.title = '';
  delete document.documentElement.dataset.theme;
  window.history.replaceState(null, '', '/');
  installFakeMatchMedia(false);
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  redirects = [];
  restoreRedirect = setRedirect((p) => redirects.push(p));
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  restoreRedirect();
});

describe('signed out', () => {
  it('shows the login screen with the configured product name', async () => {
    installFakeFetch({ '/api/config': config, '/api/health': () => ok({ status: 'ok' }) });
    renderApp();
    expect(await screen.findByText('Riverside', { selector: '.auth-card__product' })).toBeTruthy();
    expect(document.title).toBe('Riverside');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create New Account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Student' }) as HTMLInputElement).checked).toBe(true);
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    act(() => screen.getByRole('button', { name: 'Show password' }).click());
    expect(password.type).toBe('text');
    expect(await screen.findByText('Server: online')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Help & support' }).getAttribute('href')).toBe('mailto:help@riverside.edu');
  });

  it('validates before calling the server', async () => {
    const fetchMock = installFakeFetch({ '/api/config': config });
    renderApp();
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Email or university ID is required');
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/auth/login'))).toBe(false);
  });

  it('a failed login suggests signing up and offers to clear stored data', async () => {
    let calls = 0;
    installFakeFetch({
      '/api/config': config,
      '/api/auth/login': () => {
        calls += 1;
        return fail('Incorrect credentials', 401);
      },
    });
    sessionStorage.setItem('campus.page', 'friends');
    renderApp();
    type('Email or university ID', 'ghost@uni.edu');
    type('Password', 'whatever1');
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(await screen.findByText('This email might not be registered. Would you like to sign up instead?')).toBeTruthy();
    expect(screen.getByText('Incorrect credentials')).toBeTruthy();
    expect(redirects).toEqual([]); // a 401 on login is an answer, not a sign-out
    expect(screen.getByText(/stored data might be corrupted/)).toBeTruthy();

    await act(async () => screen.getByRole('button', { name: 'Clear stored data and try again' }).click());
    expect(sessionStorage.getItem('campus.page')).toBeNull();
    await waitFor(() => expect(calls).toBe(2));

    act(() => screen.getByRole('button', { name: 'Sign Up Now' }).click());
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ghost@uni.edu');
  });

  it('signs in with a university ID and role and shows the feed', async () => {
    let login: Record<string, unknown> = {};
    installFakeFetch({
      '/api/config': config,
      '/api/auth/login': (init) => {
        login = body(init);
        return ok({ user, token: 'tok-1' });
      },
      '/api/users/me': () => ok({ user }),
      '/api/posts/feed': emptyFeed,
      '/api/friends/suggestions': () => ok([]),
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
    });
    renderApp();
    act(() => screen.getByRole('radio', { name: 'Faculty' }).click());
    type('Email or university ID', 'bwu/bca/20/123');
    type('Password', 'Secret1!');
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(await screen.findByText('Welcome to Riverside!')).toBeTruthy();
    expect(login).toEqual({ universityId: 'BWU/BCA/20/123', password: 'Secret1!', role: 'faculty' });
    expect(localStorage.getItem('campus.token')).toBe('tok-1');
    expect(JSON.parse(localStorage.getItem('campus.auth')!).user.id).toBe('u1');
    expect(sessionStorage.getItem('campus.page')).toBe('feed');
    expect(screen.getByText('Start by creating your first post or connecting with friends.')).toBeTruthy();
    // Focus lands on the composer, not the page's body (issue 27 item 7).
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/What's on your mind/));
    // The realtime connection opens while signed in (its effect runs after the feed renders).
    await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
    expect(FakeWebSocket.last().url).toMatch(/\/api\/ws$/);
    act(() => FakeWebSocket.last().open());
    expect(FakeWebSocket.last().frames()[0]).toEqual({ event: 'auth', data: { token: 'tok-1' } });
  });

  it('rejects a login answer without a token', async () => {
    installFakeFetch({ '/api/config': config, '/api/auth/login': () => ok({ user }) });
    renderApp();
    type('Email or university ID', 'asha@uni.edu');
    type('Password', 'x');
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(await screen.findByText('Invalid response from server')).toBeTruthy();
  });

  it('sends an unverified account to the verify screen', async () => {
    installFakeFetch({
      '/api/config': config,
      '/api/auth/login': () => fail('Please verify your email address before logging in.', 403),
    });
    renderApp();
    type('Email or university ID', 'asha@uni.edu');
    type('Password', 'Secret1!');
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeTruthy();
    expect(screen.getByText('asha@uni.edu')).toBeTruthy();
    expect(screen.getByText('Please verify your email address before logging in.')).toBeTruthy();
  });

  it('shows the wrong-role 403 as a login failure', async () => {
    const m = 'This account is registered as student. Choose the student role to sign in.';
    installFakeFetch({ '/api/config': config, '/api/auth/login': () => fail(m, 403) });
    renderApp();
    type('Email or university ID', 'asha@uni.edu');
    type('Password', 'Secret1!');
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(await screen.findByText(m)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeTruthy();
  });

  it('asks for the address when a university-ID login is unverified', async () => {
    let verified: Record<string, unknown> = {};
    installFakeFetch({
      '/api/config': config,
      '/api/auth/login': () =>
        json({ status: 'error', message: 'Please verify your email address before logging in.', errors: [{ field: 'email', msg: 'as***@uni.edu' }] }, 403),
      '/api/auth/verify-otp': (init) => {
        verified = body(init);
        return fail('Invalid or expired code', 400);
      },
    });
    renderApp();
    type('Email or university ID', 'BWU/BCA/20/123');
    type('Password', 'Secret1!');
    act(() => screen.getByRole('button', { name: 'Sign In' }).click());
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeTruthy();
    expect(screen.getByText('as***@uni.edu')).toBeTruthy();
    type('Email', 'asha@uni.edu');
    type('Verification code', '654321');
    act(() => screen.getByRole('button', { name: 'Verify Email' }).click());
    expect(await screen.findByText('Invalid OTP or server error.')).toBeTruthy();
    expect(verified).toEqual({ email: 'asha@uni.edu', otp: '654321' });
  });

  it('clears saved auth state without a string user id', () => {
    installFakeFetch({ '/api/config': config });
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', JSON.stringify({ user: { id: 42 } }));
    renderApp();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(localStorage.getItem('campus.auth')).toBeNull();
  });
});

describe('signup → verify → onboarding → feed', () => {
  it('runs the whole signed-out flow', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls: Record<string, Record<string, unknown>> = {};
    const record = (name: string, answer: Route): Route => (init, url) => {
      calls[name] = body(init);
      return answer(init, url);
    };
    installFakeFetch({
      '/api/config': config,
      '/api/auth/signup': record('signup', () => ok({ email: 'asha@uni.edu', message: 'A verification code has been sent to your email.' }, 201)),
      '/api/auth/verify-otp': record('verify', () => ok({ token: 'tok-2', user: { ...user, name: 'Asha Rao' } })),
      '/api/friends/suggestions': () => ok([]),
      '/api/profile/setup': record('setup', () => ok({ name: 'Asha Rao', bio: '', avatar: { url: '' }, coverPhoto: { url: '' } })),
      '/api/users/me': () => ok({ user }),
      '/api/posts/feed': emptyFeed,
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
    });
    renderApp();
    act(() => screen.getByRole('button', { name: 'Create New Account' }).click());

    type('Full name', 'Asha Rao');
    type('Email', 'asha@uni.edu');
    type('University ID', 'bwu/bca/20/123');
    type('Program', 'BCA');
    type('Batch', '2020');
    type('Password', 'Secret1!');
    type('Confirm password', 'Secret2!');
    act(() => screen.getByRole('button', { name: 'Sign Up' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Passwords do not match');

    type('Confirm password', 'Secret1!');
    act(() => screen.getByRole('button', { name: 'Sign Up' }).click());
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeTruthy();
    expect(calls.signup).toMatchObject({ role: 'student', collegeId: 'BWU/BCA/20/123', universityId: 'BWU/BCA/20/123', program: 'BCA', batch: '2020' });
    expect(screen.getByText('The code expires in 10 minutes.')).toBeTruthy();
    const resend = screen.getByRole('button', { name: /Resend Code/ }) as HTMLButtonElement;
    expect(resend.disabled).toBe(true);
    expect(resend.textContent).toMatch(/Resend Code \((60|59)s\)/);

    type('Verification code', '12a34567');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123456');
    act(() => screen.getByRole('button', { name: 'Verify Email' }).click());
    expect(await screen.findByRole('heading', { name: 'Add a profile picture' })).toBeTruthy();
    expect(calls.verify).toEqual({ email: 'asha@uni.edu', otp: '123456' });

    act(() => screen.getByRole('button', { name: 'Continue' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Please upload a profile picture');

    act(() => screen.getByRole('button', { name: 'Skip profile setup' }).click());
    expect(await screen.findByRole('heading', { name: 'Find People You Know' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Skip for now' }).click());
    expect(await screen.findByText('Welcome to Riverside!')).toBeTruthy();
    expect(calls.setup).toEqual({ name: 'Asha Rao', role: 'student' });
    expect(localStorage.getItem('campus.onboarding')).toBeNull();
    vi.useRealTimers();
  });

  it('still ends at the feed when profile setup fails', async () => {
    installFakeFetch({
      '/api/config': config,
      '/api/friends/suggestions': () => ok([{ user: { id: 'u2', name: 'Ravi Kumar', universityId: 'BWU/BCA/20/9', role: 'student' }, mutualFriends: 1 }]),
      '/api/profile/setup': () => fail('boom', 500),
      '/api/users/me': () => ok({ user }),
      '/api/posts/feed': emptyFeed,
      '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
    });
    signedIn();
    localStorage.setItem('campus.onboarding', JSON.stringify({ step: 'people', avatar: { url: '/media/a.png' }, bio: 'Hi', skipped: false }));
    renderApp();
    const card = await screen.findByRole('button', { name: /Ravi Kumar/ });
    act(() => card.click());
    expect(screen.getByRole('button', { name: 'Follow 1 Person' })).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Follow 1 Person' }).click());
    expect(await screen.findByText('Failed to complete profile setup. Please try again.', {}, { timeout: 3000 })).toBeTruthy();
    expect(await screen.findByText('Welcome to Riverside!')).toBeTruthy();
  });
});

describe('signed in', () => {
  const shellRoutes = {
    '/api/config': config,
    '/api/users/me': () => ok({ user }),
    '/api/posts/feed': emptyFeed,
    '/api/friends/suggestions': () => ok([]),
    '/api/friends/pending-requests': () => ok({ pendingRequests: [{ id: 'r1', status: 'pending' }] }),
  };

  it('opens a deep link and keeps Back working', async () => {
    installFakeFetch(shellRoutes);
    signedIn();
    window.history.replaceState(null, '', '/friends');
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Friends', level: 1 })).toBeTruthy();
    // Friends turns red while requests are pending.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Friends (pending requests)' })).toBeTruthy());
    act(() => screen.getAllByRole('button', { name: /Home/ })[0]!.click());
    expect(await screen.findByText('Welcome to Riverside!')).toBeTruthy();
    act(() => {
      window.history.replaceState({ page: 'friends' }, '', '/friends');
      window.dispatchEvent(new PopStateEvent('popstate', { state: { page: 'friends' } }));
    });
    expect(await screen.findByRole('heading', { name: 'Friends', level: 1 })).toBeTruthy();
  });

  it('opens /messages/{id}; the Messages entry carries the unread badge and the tab title counts messages too', async () => {
    const brief = { id: 'u2', name: 'Ravi Kumar', avatar: null };
    const conv = {
      id: 'c1', kind: 'direct', title: 'Ravi Kumar', members: [{ ...brief, role: 'member' }], lastSeq: 2, lastMessage: null,
      readSeq: 2, unreadCount: 0, muted: false, readOnly: false, role: 'member', updatedAt: '2026-11-27T10:00:00Z', createdAt: '2026-11-27T10:00:00Z',
    };
    const other = { ...conv, id: 'c2', title: 'Study group', kind: 'group', unreadCount: 3, lastSeq: 5, readSeq: 2 };
    installFakeFetch({
      ...shellRoutes,
      '/api/conversations': () => ok({ conversations: [conv, other], nextCursor: null, unreadTotal: 3 }),
      '/api/conversations/c1': () => ok(conv),
      '/api/conversations/c1/messages': () => ok({ messages: [], hasMore: false }),
    });
    signedIn();
    window.history.replaceState(null, '', '/messages/c1');
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Ravi Kumar', level: 2 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Messages', level: 1 })).toBeTruthy();
    const entry = await within(screen.getByRole('navigation', { name: 'Main' })).findByRole('button', { name: /Messages.*unread/ });
    expect(entry.getAttribute('aria-current')).toBe('page');
    expect(entry.textContent).toContain('3');
    const mobile = within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('button', { name: /Messages/ });
    expect(mobile.textContent).toContain('3 unread');
    await waitFor(() => expect(document.title).toBe('(3) Riverside'));
  });

  it('opens a /search?q= link (where an @name or #tag points) as the search overlay over the feed', async () => {
    installFakeFetch({ ...shellRoutes, '/api/search': () => ok({ results: [] }) });
    signedIn();
    window.history.replaceState(null, '', '/search?q=%23exams');
    const store = renderApp();
    expect(await screen.findByText('Welcome to Riverside!')).toBeTruthy();
    await waitFor(() => expect(store.get(searchOpenAtom)).toBe(true));
    expect(store.get(searchQueryAtom)).toBe('#exams');
    expect(window.location.pathname + window.location.search).toBe('/');
  });

  it('avatar menu: profile, settings, help, display and log out', async () => {
    let loggedOut = false;
    installFakeFetch({
      ...shellRoutes,
      '/api/auth/logout': () => {
        loggedOut = true;
        return ok(null);
      },
    });
    signedIn();
    renderApp();
    await screen.findByText('Welcome to Riverside!');
    act(() => screen.getByRole('button', { name: 'Account menu' }).click());
    const menu = screen.getByRole('menu', { name: 'Account' });
    expect(within(menu).getByText('View your profile')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: /Help & support/ }).getAttribute('href')).toBe('mailto:help@riverside.edu');
    act(() => within(menu).getByRole('menuitem', { name: /Display & accessibility/ }).click());
    act(() => screen.getByRole('radio', { name: /On/ }).click());
    expect(document.documentElement.dataset.theme).toBe('dark');
    act(() => screen.getByRole('button', { name: 'Back' }).click());

    act(() => screen.getByRole('menuitem', { name: /Settings & privacy/ }).click());
    expect(await screen.findByRole('heading', { name: 'Settings & Privacy' })).toBeTruthy();
    expect(window.location.pathname).toBe('/settings');

    act(() => screen.getByRole('button', { name: 'Account menu' }).click());
    await act(async () => screen.getByRole('menuitem', { name: /Log Out/ }).click());
    await waitFor(() => expect(redirects).toEqual(['/login']));
    expect(loggedOut).toBe(true);
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(localStorage.getItem('campus.auth')).toBeNull();
    expect(sessionStorage.getItem('campus.page')).toBeNull();
  });

  it('log out: a 401 that meets the revoked token on the way does not take the page to / first', async () => {
    installFakeFetch({
      ...shellRoutes,
      '/api/auth/logout': () => {
        // The token is revoked now: a call that raced the logout meets a 401.
        handleUnauthorized();
        return ok(null);
      },
    });
    signedIn();
    renderApp();
    await screen.findByText('Welcome to Riverside!');
    act(() => screen.getByRole('button', { name: 'Account menu' }).click());
    await act(async () => screen.getByRole('menuitem', { name: /Log Out/ }).click());
    await waitFor(() => expect(redirects).toEqual(['/login']));
  });

  it('account menu by keyboard: focus on the first item, arrows rove, Home/End, Escape back to the button', async () => {
    installFakeFetch(shellRoutes);
    signedIn();
    renderApp();
    await screen.findByText('Welcome to Riverside!');
    const trigger = screen.getByRole('button', { name: 'Account menu' });
    trigger.focus();
    act(() => trigger.click());
    const menu = screen.getByRole('menu', { name: 'Account' });
    const items = within(menu).getAllByRole('menuitem');
    expect(document.activeElement).toBe(items[0]);
    const key = (k: string) => act(() => void document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));
    key('ArrowDown');
    expect(document.activeElement).toBe(items[1]);
    expect(items.map((el) => el.tabIndex)).toEqual(items.map((_, i) => (i === 1 ? 0 : -1)));
    key('End');
    expect(document.activeElement).toBe(items[items.length - 1]);
    key('ArrowDown'); // wraps
    expect(document.activeElement).toBe(items[0]);
    key('ArrowUp');
    expect(document.activeElement).toBe(items[items.length - 1]);
    key('Home');
    expect(document.activeElement).toBe(items[0]);
    key('Escape');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('has a skip link to the main content, first in the page', async () => {
    installFakeFetch(shellRoutes);
    signedIn();
    renderApp();
    await screen.findByText('Welcome to Riverside!');
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    const focusables = document.querySelectorAll('a[href], button, input, textarea, select, [tabindex="0"]');
    expect(focusables[0]).toBe(skip);
    act(() => skip.click());
    expect(document.activeElement).toBe(document.getElementById('main'));
  });

  it('shows the unread badge capped at 9+', async () => {
    installFakeFetch(shellRoutes);
    signedIn();
    renderApp();
    await screen.findByText('Welcome to Riverside!');
    await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
    act(() => FakeWebSocket.last().open());
    act(() => FakeWebSocket.last().receive('ready', { userId: 'u1', unreadCount: 12 }));
    expect(screen.getByRole('button', { name: 'Notifications 9+ unread' }).textContent).toContain('9+');
  });
});

describe('the unread count', () => {
  it('puts the unread count in the tab title', () => {
    expect(unreadTitle('Campus', 0)).toBe('Campus');
    expect(unreadTitle('Campus', 3)).toBe('(3) Campus');
    expect(unreadTitle('Campus', 120)).toBe('(99+) Campus');
  });

  it('caps the unread badge at 9+', () => {
    expect(badgeText(3)).toBe('3');
    expect(badgeText(9)).toBe('9');
    expect(badgeText(10)).toBe('9+');
  });
});
