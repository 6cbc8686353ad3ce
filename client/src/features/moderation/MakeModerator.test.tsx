import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { MakeModerator } from './MakeModerator';
import { useCapabilities } from './useCapabilities';

const ok = (data: unknown) => json({ status: 'success', data });

/** Shows once its own capabilities call has answered: MakeModerator's, made first, has too. */
function Known() {
  return useCapabilities(true).moderator ? <p>capabilities known</p> : null;
}

function renderFor(caps: { moderator: boolean; admin: boolean }) {
  const fetchMock = installFakeFetch({
    '/api/safety/capabilities': () => ok(caps),
    '/api/admin/moderators/u2': () => ok({}),
  });
  render(
    <Provider store={createStore()}>
      <MakeModerator userId="u2" name="Ravi Kumar" />
      <Known />
    </Provider>,
  );
  return fetchMock;
}

afterEach(cleanup);

describe('MakeModerator', () => {
  it('is offered to an admin, and grants after the confirmation', async () => {
    const fetchMock = renderFor({ moderator: true, admin: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Make moderator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make Ravi Kumar a moderator?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make moderator' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const grants = fetchMock.mock.calls.filter(([url, init]) => String(url).endsWith('/api/admin/moderators/u2') && init?.method === 'POST');
    expect(grants).toHaveLength(1);
  });

  it('is not offered to a moderator who is not an admin', async () => {
    renderFor({ moderator: true, admin: false });
    await screen.findByText('capabilities known');
    expect(screen.queryByRole('button', { name: 'Make moderator' })).toBeNull();
  });
});
