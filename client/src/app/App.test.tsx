import { act, cleanup, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFakeFetch, json } from '../test/fakeFetch';
import { installFakeMatchMedia } from '../test/fakeMatchMedia';
import { App } from './App';

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
  document.title = '';
  delete document.documentElement.dataset.theme;
});
afterEach(cleanup);

describe('App shell', () => {
  it('shows the configured product name and an online server', async () => {
    installFakeMatchMedia(false);
    installFakeFetch({
      '/api/config': () =>
        json({ status: 'success', data: { productName: 'Riverside', supportEmail: 'help@riverside.edu' } }),
      '/api/health': () => json({ status: 'success', data: { status: 'ok' } }),
    });
    renderApp();

    expect(await screen.findByRole('heading', { level: 1, name: 'Riverside' })).toBeTruthy();
    expect(document.title).toBe('Riverside');
    expect(await screen.findByText('Server: online')).toBeTruthy();
    const support = screen.getByRole('link', { name: 'Help & support' });
    expect(support.getAttribute('href')).toBe('mailto:help@riverside.edu');
  });

  it('falls back to Campus and shows an unreachable server', async () => {
    installFakeMatchMedia(false);
    installFakeFetch({}); // every call fails
    renderApp();

    expect(screen.getByRole('heading', { level: 1, name: 'Campus' })).toBeTruthy();
    expect(await screen.findByText('Server: unreachable')).toBeTruthy();
    expect(document.title).toBe('Campus');
    expect(screen.queryByRole('link', { name: 'Help & support' })).toBeNull();
  });

  it('has the placeholder sign-in form with Sign In disabled', async () => {
    installFakeMatchMedia(false);
    installFakeFetch({});
    renderApp();

    expect(screen.getByLabelText('E-mail or university ID')).toBeTruthy();
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    act(() => screen.getByRole('button', { name: 'Show' }).click());
    expect(password.type).toBe('text');

    const student = screen.getByRole('radio', { name: 'Student' }) as HTMLInputElement;
    const faculty = screen.getByRole('radio', { name: 'Faculty' }) as HTMLInputElement;
    expect(student.checked).toBe(true);
    act(() => faculty.click());
    expect(faculty.checked).toBe(true);
    expect(student.checked).toBe(false);

    const signIn = screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement;
    expect(signIn.disabled).toBe(true);
    expect(screen.getByText('Sign-in arrives soon.')).toBeTruthy();
    await screen.findByText('Server: unreachable');
  });

  it('applies the theme and switches it from the Dark mode control', async () => {
    const media = installFakeMatchMedia(true);
    installFakeFetch({});
    renderApp();

    const auto = screen.getByRole('radio', { name: /Automatic/ }) as HTMLInputElement;
    expect(auto.checked).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('dark');

    act(() => media.setDark(false));
    expect(document.documentElement.dataset.theme).toBe('light');

    act(() => (screen.getByRole('radio', { name: /On/ }) as HTMLInputElement).click());
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('campus.theme')).toBe('dark');

    act(() => (screen.getByRole('radio', { name: /Off/ }) as HTMLInputElement).click());
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem('campus.theme')).toBe('light');
    await screen.findByText('Server: unreachable');
  });
});
