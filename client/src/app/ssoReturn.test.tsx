// University sign-in through the app's wiring: a sign-in started on the
// login screen of a deep link comes back to that link (the return path
// survives the trip to the identity provider), a first sign-in goes through
// onboarding, a cancelled one says so and goes back to the login screen,
// and logging out goes by the identity provider's logout when it has one.

import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRedirect } from '../lib/redirect';
import { installFakeFetch, json, type Route } from '../test/fakeFetch';
import { installFakeMatchMedia } from '../test/fakeMatchMedia';
import { FakeWebSocket } from '../test/fakeWebSocket';
import { App } from './App';

const ok = (data: unknown, status = 200) => json({ status: 'success', data }, status);
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

const user = { id: 'u1', name: 'Asha Sen', email: 'asha@bwu.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const config = () => ok({ productName: 'Riverside', sso: [{ id: 'oidc', name: 'Bluewater University' }] });
const TICKET = 'A'.repeat(43);

const shellRoutes: Record<string, Route> = {
  '/api/config': config,
  '/api/health': () => ok({ status: 'ok' }),
  '/api/users/me': () => ok({ user }),
  '/api/posts/feed': () => ok({ posts: [], nextCursor: null }),
  '/api/friends': () => ok({ friends: [] }),
  '/api/friends/suggestions': () => ok([]),
  '/api/friends/pending-requests': () => ok({ pendingRequests: [] }),
};

let restoreRedirect: () => void;
let redirects: string[];
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

function renderApp() {
  const store = createStore();
  render(
    <Provider store={store}>
      <App />
    </Provider>,
  );
  return store;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  installFakeMatchMedia(false);
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  redirects = [];
  restoreRedirect = setRedirect((p) => redirects.push(p));
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  restoreRedirect();
  vi.restoreAllMocks();
});

describe('university sign-in, round trip', () => {
  it('a deep link opened signed out is where the sign-in ends', async () => {
    let started: Record<string, unknown> = {};
    installFakeFetch({
      ...shellRoutes,
      '/api/auth/sso/start': (init) => {
        started = body(init);
        return ok({ url: 'http://idp.test/authorize?state=s' });
      },
      // The server keeps the return path with the sign-in and answers it here.
      '/api/auth/sso/exchange': (init) =>
        body(init).ticket === TICKET ? ok({ token: 'tok-sso', user, returnTo: started.returnTo, newAccount: false }) : ok({}),
    });
    window.history.replaceState(null, '', '/friends');
    renderApp();
    const button = await screen.findByRole('button', { name: 'Sign in with Bluewater University' });
    await act(async () => button.click());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://idp.test/authorize?state=s'));
    expect(started).toEqual({ provider: 'oidc', returnTo: '/friends', link: false, password: '' });
    cleanup();

    // The identity provider sends the browser back with a ticket.
    window.history.replaceState(null, '', `/sso/callback#ticket=${TICKET}`);
    renderApp();
    // Never a flash of the login screen while the ticket is redeemed.
    expect(screen.queryByRole('heading', { name: 'Welcome back' })).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Friends', level: 1 })).toBeTruthy();
    expect(window.location.pathname).toBe('/friends');
    expect(window.location.hash).toBe('');
    expect(localStorage.getItem('campus.token')).toBe('tok-sso');
    expect(localStorage.getItem('campus.onboarding')).toBeNull();
  });

  it('the login screen itself returns to the feed', async () => {
    let started: Record<string, unknown> = {};
    installFakeFetch({
      ...shellRoutes,
      '/api/auth/sso/start': (init) => {
        started = body(init);
        return ok({ url: 'http://idp.test/authorize' });
      },
    });
    window.history.replaceState(null, '', '/login');
    renderApp();
    const button = await screen.findByRole('button', { name: 'Sign in with Bluewater University' });
    await act(async () => button.click());
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(started.returnTo).toBe('/');
  });

  it('a first sign-in (the account was just made) goes through onboarding', async () => {
    installFakeFetch({ ...shellRoutes, '/api/auth/sso/exchange': () => ok({ token: 'tok-new', user, returnTo: '/', newAccount: true }) });
    window.history.replaceState(null, '', `/sso/callback#ticket=${TICKET}`);
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Add a profile picture' }, { timeout: 10_000 })).toBeTruthy();
    expect(localStorage.getItem('campus.token')).toBe('tok-new');
  }, 15_000);

  it('a cancelled sign-in says so and goes back to the login screen', async () => {
    const two = [
      { id: 'oidc', name: 'Bluewater University' },
      { id: 'saml', name: 'Bluewater Shibboleth' },
    ];
    installFakeFetch({ ...shellRoutes, '/api/config': () => ok({ productName: 'Riverside', sso: two }) });
    window.history.replaceState(null, '', '/sso/callback#error=cancelled&provider=saml');
    renderApp();
    // Named after the sign-in that was cancelled, once the config says its name.
    expect((await screen.findByRole('alert')).textContent).toBe('Sign-in with Bluewater Shibboleth was cancelled. You can try again.');
    act(() => screen.getByRole('button', { name: 'Back to sign in' }).click());
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
  });

  it('logging out of a university sign-in ends the provider’s session too', async () => {
    const idpLogout = 'http://idp.test/end_session?id_token_hint=x&post_logout_redirect_uri=http%3A%2F%2Flocalhost%2Flogin';
    installFakeFetch({ ...shellRoutes, '/api/auth/logout': () => ok({ message: 'Logged out', logoutUrl: idpLogout }) });
    localStorage.setItem('campus.token', 'tok-sso');
    localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user }));
    window.history.replaceState(null, '', '/');
    renderApp();
    const menuButton = await screen.findByRole('button', { name: 'Account menu' });
    act(() => menuButton.click());
    await act(async () => within(screen.getByRole('menu', { name: 'Account' })).getByRole('menuitem', { name: /Log Out/ }).click());
    await waitFor(() => expect(redirects).toEqual([idpLogout]));
    expect(localStorage.getItem('campus.token')).toBeNull();
  });

  it('a logout answer without a provider page (or a strange one) goes to the login page', async () => {
    installFakeFetch({ ...shellRoutes, '/api/auth/logout': () => ok({ message: 'Logged out', logoutUrl: 'javascript:alert(1)' }) });
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user }));
    window.history.replaceState(null, '', '/');
    renderApp();
    const menuButton = await screen.findByRole('button', { name: 'Account menu' });
    act(() => menuButton.click());
    await act(async () => within(screen.getByRole('menu', { name: 'Account' })).getByRole('menuitem', { name: /Log Out/ }).click());
    await waitFor(() => expect(redirects).toEqual(['/login']));
  });

  it('an address with an account: proof by a mailed code, then signed in', async () => {
    const links: Record<string, unknown>[] = [];
    installFakeFetch({
      ...shellRoutes,
      '/api/auth/sso/link/send-code': (init) =>
        body(init).ticket === TICKET ? ok({ message: 'A verification code has been sent to as***@bwu.edu' }) : ok({}),
      '/api/auth/sso/link': (init) => {
        links.push(body(init));
        return ok({ token: 'tok-linked', user, returnTo: '/', newAccount: false });
      },
    });
    window.history.replaceState(null, '', `/sso/callback#email=as%2A%2A%2A%40bwu.edu&provider=oidc&link=${TICKET}`);
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Link your university sign-in' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/An account with as\*\*\*@bwu.edu already exists/).textContent).toContain('Bluewater University'));
    await act(async () => screen.getByRole('button', { name: 'E-mail me a code instead' }).click());
    expect(await screen.findByText('A verification code has been sent to as***@bwu.edu')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    await act(async () => screen.getByRole('button', { name: 'Link and sign in' }).click());
    expect(await screen.findByText('Welcome to Riverside!')).toBeTruthy();
    expect(links).toEqual([{ ticket: TICKET, otp: '123456' }]);
    expect(localStorage.getItem('campus.token')).toBe('tok-linked');
  });
});
