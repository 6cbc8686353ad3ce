// Issue 31: a suspended member bounced to the login page is told why and
// until when — on arrival (the 401 of the token they held says it) and
// after a login attempt (the 403) — without the "stored data might be
// corrupted" hint or the sign-up suggestion, which cannot help.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../api/http';
import { setRedirect } from '../../lib/redirect';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { LoginPage } from './LoginPage';
import { MSG_STORED_DATA_HINT } from './validation';

const WHY = 'Your account has been suspended until 4 December 2026 12:00 UTC. Reason: Spamming the feed';
const suspended = (status: number) =>
  json(
    {
      status: 'error',
      message: WHY,
      errors: [
        { field: 'suspension', msg: 'Spamming the feed' },
        { field: 'suspendedUntil', msg: '2026-12-04T12:00:00Z' },
      ],
    },
    status,
  );

function renderLogin() {
  render(
    <Provider store={createStore()}>
      <LoginPage />
    </Provider>,
  );
}

function signIn() {
  fireEvent.change(screen.getByLabelText('Email or university ID'), { target: { value: 'sam@uni.edu' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

let redirects: string[] = [];
let restoreRedirect: () => void = () => {};
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/login');
  redirects = [];
  restoreRedirect = setRedirect((p) => redirects.push(p));
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  restoreRedirect();
});

describe('login page of a suspended account', () => {
  it('says why after a login attempt, without the stored-data hint', async () => {
    installFakeFetch({ '/api/auth/login': () => suspended(403) });
    renderLogin();
    signIn();
    expect((await screen.findByText(WHY)).getAttribute('role')).toBe('alert');
    expect(screen.queryByText(MSG_STORED_DATA_HINT)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign Up Now' })).toBeNull();
  });

  it('says why on arrival when the server signed the tab out, once', async () => {
    localStorage.setItem('campus.token', 'tok');
    installFakeFetch({ '/api/users/me': () => suspended(401) });
    await expect(apiGet('/users/me')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(redirects).toEqual(['/']);
    renderLogin();
    expect(screen.getByText(WHY).getAttribute('role')).toBe('alert');
    expect(screen.queryByText(MSG_STORED_DATA_HINT)).toBeNull();
    cleanup();
    renderLogin();
    expect(screen.queryByText(WHY)).toBeNull();
  });

  it('keeps the hint for other failures', async () => {
    installFakeFetch({ '/api/auth/login': () => json({ status: 'error', message: 'Incorrect credentials' }, 401) });
    renderLogin();
    signIn();
    expect(await screen.findByText(MSG_STORED_DATA_HINT)).toBeTruthy();
  });
});
