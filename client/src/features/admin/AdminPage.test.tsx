import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { AdminPage } from './AdminPage';

const ok = (data: unknown) => json({ status: 'success', data });

const tariq = {
  id: 'u2',
  name: 'Tariq Target',
  email: 'tariq@uni.edu',
  role: 'student',
  verified: true,
  createdAt: '2026-11-27T10:00:00Z',
  capabilities: [],
  suspended: false,
  suspendedUntil: null,
  openReports: 1,
  posts: 3,
};

function renderPage(admin: boolean, extra: Record<string, (init: RequestInit | undefined) => Response> = {}) {
  const fetchMock = installFakeFetch({
    '/api/safety/capabilities': () => ok({ moderator: admin, admin }),
    '/api/admin/users': () => ok({ users: [tariq], nextCursor: null }),
    '/api/admin/users/u2': () => ok(tariq),
    '/api/admin/groups': () =>
      ok({ groups: [{ id: 'g1', handle: 'quiet-room', name: 'Quiet Room', kind: 'club', visibility: 'secret', members: 1, posts: 0 }] }),
    '/api/admin/system': () =>
      ok({
        nodes: [{ node: '10.0.0.1:6331', version: 'v1', ageMs: 800, stale: false, figures: { members: ['10.0.0.1:6331'], sockets: 4, ready: 'ok', membership: 'ok' } }],
        database: { connections: { active: 1, idle: 8 }, maxConnections: 200, mailOutbox: 0, pushOutbox: 2 },
      }),
    ...extra,
  });
  render(
    <Provider store={createStore()}>
      <AdminPage />
    </Provider>,
  );
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('AdminPage', () => {
  it('tells a member who is not an admin, and calls nothing of the console', async () => {
    const fetchMock = renderPage(false);
    await screen.findByText('Only admins can see the admin console.');
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/admin/'))).toBe(false);
  });

  it('finds an account and suspends it with a reason and a duration', async () => {
    let body: unknown;
    const fetchMock = renderPage(true, {
      '/api/admin/users/u2/suspend': (init) => {
        body = JSON.parse(String(init?.body));
        return ok({
          message: 'Account suspended',
          user: { ...tariq, suspended: true, suspendedUntil: '2026-12-27T10:00:00Z', suspensionReason: 'spam' },
        });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Tariq Target/ }));
    const detail = await screen.findByRole('article', { name: 'Tariq Target' });
    fireEvent.click(within(detail).getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Tariq Target?' });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'spam' } });
    fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: '30' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(body).toEqual({ reason: 'spam', days: 30 });
    await within(detail).findByRole('button', { name: 'Lift suspension' });
    expect(within(detail).getByText(/Suspended until/)).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/suspend'))).toHaveLength(1);
  });

  it('grants a role after asking', async () => {
    let granted: unknown;
    renderPage(true, {
      '/api/admin/users/u2/roles': (init) => {
        granted = JSON.parse(String(init?.body));
        return ok({ message: 'Now a moderator', user: { ...tariq, capabilities: ['moderator'] } });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Tariq Target/ }));
    const detail = await screen.findByRole('article', { name: 'Tariq Target' });
    fireEvent.click(within(detail).getByRole('button', { name: 'Make moderator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make Tariq Target a moderator?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make moderator' }));
    await within(detail).findByRole('button', { name: 'Remove moderator' });
    expect(granted).toMatchObject({ role: 'moderator' });
  });

  it('shows every group and the system page', async () => {
    renderPage(true);
    fireEvent.click(await screen.findByRole('tab', { name: 'Groups' }));
    const table = await screen.findByRole('table', { name: 'Groups' });
    expect(within(table).getByRole('link', { name: 'Quiet Room' }).getAttribute('href')).toBe('/g/quiet-room');
    expect(within(table).getByText('secret')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'System' }));
    const node = await screen.findByRole('article', { name: 'Node 10.0.0.1:6331' });
    expect(within(node).getByText('v1')).toBeTruthy();
    expect(screen.getByText(/9 of 200/)).toBeTruthy();
    expect(screen.getByText('2 waiting')).toBeTruthy();
  });

  it('reads the system figures again while the page is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = renderPage(true);
    fireEvent.click(await screen.findByRole('tab', { name: 'System' }));
    await screen.findByRole('article', { name: 'Node 10.0.0.1:6331' });
    const calls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/admin/system')).length;
    const before = calls();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(calls()).toBe(before + 1);
  });
});
