// Issue 31: a socket closed because the member was suspended says nothing of
// why; the tab asks once with the refused token, and the 401 that answers
// (the suspension's reason and end) is what the login page shows.
import { cleanup, render, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRedirect } from '../lib/redirect';
import { installFakeFetch, json } from '../test/fakeFetch';
import { FakeWebSocket } from '../test/fakeWebSocket';
import { useRealtime } from './useRealtime';

const WHY = 'Your account has been suspended permanently. Reason: Spam';

function Live() {
  useRealtime();
  return null;
}

let redirects: string[] = [];
let restoreRedirect: () => void = () => {};
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  redirects = [];
  restoreRedirect = setRedirect((p) => redirects.push(p));
});
afterEach(() => {
  cleanup();
  restoreRedirect();
  vi.unstubAllGlobals();
});

describe('a socket refused for a suspension', () => {
  it('signs out with the reason for the login page', async () => {
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: { id: 'u1', name: 'Sam' } }));
    const fetchMock = installFakeFetch({
      '/api/users/me': () => json({ status: 'error', message: WHY, errors: [{ field: 'suspension', msg: 'Spam' }] }, 401),
    });
    render(
      <Provider store={createStore()}>
        <Live />
      </Provider>,
    );
    await waitFor(() => expect(FakeWebSocket.instances.length).toBe(1));
    FakeWebSocket.last().open();
    FakeWebSocket.last().serverClose(1008, 'Invalid or expired token');
    await waitFor(() => expect(redirects.length).toBeGreaterThan(0));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem('campus.signOutNotice')).toBe(WHY);
    expect(localStorage.getItem('campus.token')).toBeNull();
  });
});

describe('a socket closed with 1008 while the token holds', () => {
  it('connects again instead of signing out', async () => {
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: { id: 'u1', name: 'Sam' } }));
    const fetchMock = installFakeFetch({
      '/api/users/me': () => json({ status: 'success', data: { user: { id: 'u1', name: 'Sam' } } }),
    });
    render(
      <Provider store={createStore()}>
        <Live />
      </Provider>,
    );
    await waitFor(() => expect(FakeWebSocket.instances.length).toBe(1));
    FakeWebSocket.last().open();
    FakeWebSocket.last().serverClose(1008, 'Too many frames');
    await waitFor(() => expect(FakeWebSocket.instances.length).toBe(2), { timeout: 5000 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(redirects).toEqual([]);
    expect(localStorage.getItem('campus.token')).toBe('tok');
  });
});

