// Issue 16 #9: after deleting the account the login page says so, once.
import { cleanup, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginPage, MSG_ACCOUNT_DELETED } from './LoginPage';

afterEach(cleanup);

function renderLogin() {
  render(
    <Provider store={createStore()}>
      <LoginPage />
    </Provider>,
  );
}

describe('login after account deletion', () => {
  it('says the account was deleted, and forgets the flag', () => {
    window.history.replaceState(null, '', '/login?deleted=1');
    renderLogin();
    expect(screen.getByText(MSG_ACCOUNT_DELETED).getAttribute('role')).toBe('status');
    expect(window.location.search).toBe('');
    cleanup();
    renderLogin();
    expect(screen.queryByText(MSG_ACCOUNT_DELETED)).toBeNull();
  });
});
