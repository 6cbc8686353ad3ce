import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfigAtom } from '../../api/config';
import { installFakeFetch, json, type Route } from '../../test/fakeFetch';
import { SettingsPage } from './SettingsPage';
import { MSG_ENTER_PASSWORD } from './SignInsTab';

const ok = (data: unknown) => json({ status: 'success', data });
const fail = (message: string, status: number, extra: Record<string, unknown> = {}) => json({ status: 'error', message, ...extra }, status);
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

const user = { id: 'u1', name: 'Asha Rao', email: 'asha@bwu.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const SSO_CONFIG = {
  productName: 'Campus',
  sso: [
    { id: 'oidc', name: 'Bluewater University' },
    { id: 'saml', name: 'Bluewater Staff' },
  ],
};
const oidcSignIn = { id: 'i1', protocol: 'oidc', name: 'Bluewater University', email: 'asha@bwu.edu', linkedAt: '2026-11-30T10:00:00Z' };
const ONLY_WAY_IN = 'This is the only way into your account. Set a password first (Forgot password on the login page), then remove it.';

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

async function renderSettings(routes: Record<string, Route>, config: unknown = SSO_CONFIG) {
  const fetchMock = installFakeFetch({ '/api/config': () => ok(config), ...routes });
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user }));
  const store = createStore();
  await store.set(loadConfigAtom);
  render(
    <Provider store={store}>
      <SettingsPage />
    </Provider>,
  );
  return fetchMock;
}

function callsTo(fetchMock: ReturnType<typeof installFakeFetch>, path: string) {
  return fetchMock.mock.calls.filter(([u]) => new URL(String(u), 'http://localhost').pathname === path);
}

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/settings');
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Settings → Linked sign-ins', () => {
  it('is a tab only where a university sign-in is configured', async () => {
    await renderSettings({}, { productName: 'Campus' });
    expect(screen.queryByRole('tab', { name: 'Linked sign-ins' })).toBeNull();
    cleanup();
    await renderSettings({ '/api/users/me/sign-ins': () => ok({ signIns: [], hasPassword: true }) });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Personal Information',
      'Password & Security',
      'Linked sign-ins',
      'Notifications',
      'Messages',
      'Blocked people',
      'Delete Account',
    ]);
  });

  it('lists the linked sign-ins and offers the others; linking asks for the password first', async () => {
    const starts: Record<string, unknown>[] = [];
    const fetchMock = await renderSettings({
      '/api/users/me/sign-ins': () => ok({ signIns: [oidcSignIn], hasPassword: true }),
      '/api/auth/sso/start': (init) => {
        starts.push(body(init));
        return body(init).password === 'Asha#2025x'
          ? ok({ url: 'http://idp.test/sso?SAMLRequest=x' })
          : fail('Current password is incorrect. Please try again.', 400, { errors: [{ field: 'password', msg: 'Current password is incorrect. Please try again.' }] });
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Linked sign-ins' }));
    const list = await screen.findByRole('list', { name: 'Linked sign-ins' });
    expect(within(list).getByText('Bluewater University')).toBeTruthy();
    expect(within(list).getByText('asha@bwu.edu')).toBeTruthy();
    expect(within(list).getByText(/^Linked /)).toBeTruthy();
    // Only the sign-in not linked yet is offered.
    expect(screen.queryByRole('button', { name: 'Link Bluewater University' })).toBeNull();
    const link = screen.getByRole('button', { name: 'Link Bluewater Staff' });

    act(() => link.click());
    expect(screen.getByRole('alert').textContent).toBe(MSG_ENTER_PASSWORD);
    expect(callsTo(fetchMock, '/api/auth/sso/start')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'wrong-one' } });
    await act(async () => link.click());
    expect((await screen.findByRole('alert')).textContent).toBe('Current password is incorrect. Please try again.');
    expect(assign).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Asha#2025x' } });
    await act(async () => link.click());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://idp.test/sso?SAMLRequest=x'));
    // Signed in (the bearer goes along), and back to this tab afterwards.
    expect(starts.at(-1)).toEqual({ provider: 'saml', returnTo: '/settings?tab=sign-ins&linked=saml', link: true, password: 'Asha#2025x' });
    const [, init] = callsTo(fetchMock, '/api/auth/sso/start').at(-1)!;
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('an account without a password links without one', async () => {
    const starts: Record<string, unknown>[] = [];
    await renderSettings({
      '/api/users/me/sign-ins': () => ok({ signIns: [oidcSignIn], hasPassword: false }),
      '/api/auth/sso/start': (init) => {
        starts.push(body(init));
        return ok({ url: 'http://idp.test/login' });
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Linked sign-ins' }));
    const link = await screen.findByRole('button', { name: 'Link Bluewater Staff' });
    expect(screen.queryByLabelText('Current password')).toBeNull();
    await act(async () => link.click());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://idp.test/login'));
    expect(starts).toEqual([{ provider: 'saml', returnTo: '/settings?tab=sign-ins&linked=saml', link: true, password: '' }]);
  });

  it('removes a sign-in after asking; the only way in is refused with the server’s reason', async () => {
    const deletes: string[] = [];
    let refuse = false;
    const samlSignIn = { id: 'i2', protocol: 'saml', name: 'Bluewater Staff', email: 'asha@staff.bwu.edu', linkedAt: '2026-11-30T11:00:00Z' };
    await renderSettings({
      '/api/users/me/sign-ins': () => ok({ signIns: [oidcSignIn, samlSignIn], hasPassword: false }),
      '/api/users/me/sign-ins/i2': (init) => {
        deletes.push(String(init?.method));
        return ok({ message: 'Sign-in removed' });
      },
      '/api/users/me/sign-ins/i1': (init) => {
        deletes.push(String(init?.method));
        return refuse ? fail(ONLY_WAY_IN, 409) : ok({ message: 'Sign-in removed' });
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Linked sign-ins' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Bluewater Staff (asha@staff.bwu.edu)' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this sign-in?' });
    expect(dialog.textContent).toContain('You will no longer be able to sign in with Bluewater Staff (asha@staff.bwu.edu).');
    await act(async () => within(dialog).getByRole('button', { name: 'Remove' }).click());
    expect(await screen.findByText('Bluewater Staff is no longer linked to your account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove Bluewater Staff/ })).toBeNull();
    // Now it is offered for linking again.
    expect(screen.getByRole('button', { name: 'Link Bluewater Staff' })).toBeTruthy();

    refuse = true;
    fireEvent.click(screen.getByRole('button', { name: 'Remove Bluewater University (asha@bwu.edu)' }));
    await act(async () => within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }).click());
    expect((await screen.findByRole('alert')).textContent).toBe(ONLY_WAY_IN);
    expect(screen.getByRole('button', { name: 'Remove Bluewater University (asha@bwu.edu)' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes).toEqual(['DELETE', 'DELETE']);
  });

  it('back from a link: opens on this tab, says it is linked, and the query leaves the address', async () => {
    window.history.replaceState({ page: 'settings', depth: 0 }, '', '/settings?tab=sign-ins&linked=oidc');
    await renderSettings({ '/api/users/me/sign-ins': () => ok({ signIns: [oidcSignIn], hasPassword: true }) });
    expect(screen.getByRole('tab', { name: 'Linked sign-ins' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('Bluewater University is linked: you can sign in with it from now on.')).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/settings');
    expect(window.history.state).toEqual({ page: 'settings', depth: 0 });
  });

  it('a failed list says so', async () => {
    await renderSettings({ '/api/users/me/sign-ins': () => fail('Something went wrong', 500) });
    fireEvent.click(screen.getByRole('tab', { name: 'Linked sign-ins' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load your sign-ins. Please try again later.');
  });
});
