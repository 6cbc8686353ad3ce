import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveTo, redirectTo, setRedirect } from '../../lib/redirect';
import { installFakeFetch, json, type Route } from '../../test/fakeFetch';
import { authTokenAtom, currentUserAtom } from '../auth/authAtoms';
import { SettingsPage } from './SettingsPage';
import { settingsErrorMessage, MSG_VERIFY_FAILED } from './validation';
import { ApiError } from '../../api/http';

const ok = (data: unknown) => json({ status: 'success', data });
const fail = (message: string, status: number, extra: Record<string, unknown> = {}) =>
  json({ status: 'error', message, ...extra }, status);
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

const user = { id: 'u1', name: 'Asha Rao', email: 'asha@uni.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };

let redirects: string[];
let restoreRedirect: () => void;

function renderSettings(routes: Record<string, Route>) {
  const fetchMock = installFakeFetch(routes);
  localStorage.setItem('campus.token', 'old-token');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user }));
  const store = createStore();
  render(
    <Provider store={store}>
      <SettingsPage />
    </Provider>,
  );
  return { store, fetchMock };
}

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

/** Pastes a code into the first box (docs/product.md §5: a pasted code fills the boxes). */
function enterCode(code: string) {
  fireEvent.paste(screen.getByLabelText('Digit 1'), { clipboardData: { getData: () => code } });
}

beforeEach(() => {
  localStorage.clear();
  redirects = [];
  restoreRedirect = setRedirect((p) => redirects.push(p));
});
afterEach(() => {
  cleanup();
  restoreRedirect();
});

describe('Settings & Privacy (docs/product.md §2.16, §4)', () => {
  it('has its tabs; the University ID is shown and not editable', () => {
    renderSettings({});
    expect(screen.getByRole('heading', { name: 'Settings & Privacy' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Personal Information',
      'Password & Security',
      'Notifications',
      'Messages',
      'Blocked people',
      'Delete Account',
    ]);
    expect(screen.getByText('BWU/BCA/20/123')).toBeTruthy();
    expect(screen.getByText('University ID cannot be changed')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /University ID/ })).toBeNull();
  });

  it('Messages: "Who can message you" shows the saved choice and saves a new one', async () => {
    const puts: unknown[] = [];
    renderSettings({
      '/api/users/me/message-settings': (init) => {
        if (init?.method === 'PUT') {
          puts.push(body(init));
          return ok({ allowFrom: body(init).allowFrom });
        }
        return ok({ allowFrom: 'course' });
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Messages' }));
    const group = await screen.findByRole('group', { name: 'Who can message you' });
    await waitFor(() => expect((screen.getByRole('radio', { name: /Your course/ }) as HTMLInputElement).checked).toBe(true));
    expect(group.querySelectorAll('input[type=radio]')).toHaveLength(4);
    fireEvent.click(screen.getByRole('radio', { name: /Everyone on campus/ }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(puts).toEqual([{ allowFrom: 'everyone' }]);
    expect((screen.getByRole('radio', { name: /Everyone on campus/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('changes the e-mail: validation, masked code prompt, incomplete code, success with the new token', async () => {
    const { store, fetchMock } = renderSettings({
      '/api/users/send-email-change-otp': () => ok({ message: 'A verification code has been sent' }),
      '/api/users/verify-email-change-otp': (init) =>
        body(init).otp === '123456'
          ? ok({ message: 'Email updated successfully!', user: { ...user, email: 'new@uni.edu' }, token: 'new-token' })
          : fail('Invalid or expired OTP', 400),
    });
    act(() => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address');
    type('New email address', 'ASHA@uni.edu');
    act(() => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(screen.getByRole('alert').textContent).toBe('The email address is the same as your current one');
    expect(fetchMock).not.toHaveBeenCalled();

    type('New email address', 'new@uni.edu');
    act(() => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(await screen.findByText('ne***')).toBeTruthy(); // first 2 characters then ***
    expect(screen.getByText('The code expires in 10 minutes.')).toBeTruthy();
    expect(screen.getAllByRole('textbox', { name: /Digit \d/ })).toHaveLength(6);

    enterCode('123');
    act(() => screen.getByRole('button', { name: 'Verify & Update Email' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Please enter all 6 digits of the OTP.');

    enterCode('654321');
    await act(async () => screen.getByRole('button', { name: 'Verify & Update Email' }).click());
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid or expired OTP'); // the server's message

    enterCode('123456');
    await act(async () => screen.getByRole('button', { name: 'Verify & Update Email' }).click());
    expect(await screen.findByText('Email updated successfully!')).toBeTruthy();
    expect(store.get(authTokenAtom)).toBe('new-token');
    expect(localStorage.getItem('campus.token')).toBe('new-token');
    expect(store.get(currentUserAtom)?.email).toBe('new@uni.edu');
    expect(screen.getByText('new@uni.edu')).toBeTruthy();
    // Back on the form.
    expect((screen.getByLabelText('New email address') as HTMLInputElement).value).toBe('');
  });

  it('resends: success message, cooldown, and a 429 restarting the cooldown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let sends = 0;
      renderSettings({
        '/api/users/send-email-change-otp': () => {
          sends += 1;
          return sends === 3 ? fail('Please wait before requesting a new OTP.', 429, { retryAfter: 42 }) : ok({ message: 'sent' });
        },
      });
      type('New email address', 'new@uni.edu');
      await act(async () => screen.getByRole('button', { name: 'Send Verification Code' }).click());
      expect(((await screen.findByRole('button', { name: /Resend OTP \(60s\)/ })) as HTMLButtonElement).disabled).toBe(true);
      await act(async () => vi.advanceTimersByTimeAsync(61_000));
      await act(async () => screen.getByRole('button', { name: 'Resend OTP' }).click());
      expect(await screen.findByText('A new OTP has been sent to your email.')).toBeTruthy();
      expect(screen.getByRole('button', { name: /Resend OTP \(\d+s\)/ })).toBeTruthy();
      await act(async () => vi.advanceTimersByTimeAsync(61_000));
      await act(async () => screen.getByRole('button', { name: 'Resend OTP' }).click());
      expect((await screen.findByRole('alert')).textContent).toBe('Please wait before requesting a new OTP.');
      expect(screen.getByRole('button', { name: 'Resend OTP (42s)' })).toBeTruthy();
      // Back returns to the form.
      act(() => screen.getAllByRole('button', { name: 'Back' })[1]!.click());
      expect(screen.getByLabelText('New email address')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('changes the password: mismatch, wrong current password, success clears the form and stores the token', async () => {
    const { store } = renderSettings({
      '/api/users/send-password-change-otp': (init) =>
        body(init).currentPassword === 'Right#2025'
          ? ok({ message: 'sent' })
          : json({ status: 'error', message: 'Current password is incorrect. Please try again.', errors: [{ field: 'currentPassword', msg: 'x' }] }, 400),
      '/api/users/verify-password-change-otp': (init) => {
        expect(body(init)).toEqual({ otp: '123456', newPassword: 'NewPass#2026' });
        return ok({ message: 'Password updated successfully!', token: 'pw-token' });
      },
    });
    act(() => screen.getByRole('tab', { name: 'Password & Security' }).click());
    type('Current password', 'Wrong#2025');
    type('New password', 'NewPass#2026');
    type('Confirm new password', 'NewPass#2027');
    act(() => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(screen.getByRole('alert').textContent).toBe('New passwords do not match');
    type('New password', 'short');
    type('Confirm new password', 'short');
    act(() => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Password must be at least 8 characters long');
    type('New password', 'NewPass#2026');
    type('Confirm new password', 'NewPass#2026');
    await act(async () => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect((await screen.findByRole('alert')).textContent).toBe('Current password is incorrect. Please try again.');
    type('Current password', 'Right#2025');
    await act(async () => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(await screen.findByText('as***')).toBeTruthy();
    enterCode('123456');
    await act(async () => screen.getByRole('button', { name: 'Verify & Update Password' }).click());
    expect(await screen.findByText('Password updated successfully!')).toBeTruthy();
    expect(store.get(authTokenAtom)).toBe('pw-token');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });

  it('deletes the account: type DELETE, code, verify, signed out', async () => {
    const { fetchMock } = renderSettings({
      '/api/users/send-delete-account-otp': () => ok({ message: 'sent' }),
      '/api/users/verify-delete-account-otp': () => ok({ message: 'Your account has been deleted.' }),
    });
    act(() => screen.getByRole('tab', { name: 'Delete Account' }).click());
    act(() => screen.getByRole('button', { name: 'Delete Account' }).click());
    const send = screen.getByRole('button', { name: 'Send Verification Code' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    type('Type DELETE to confirm', 'delete');
    expect(send.disabled).toBe(true);
    type('Type DELETE to confirm', 'DELETE');
    expect(send.disabled).toBe(false);
    await act(async () => send.click());
    expect(await screen.findByText('as***')).toBeTruthy();
    enterCode('123456');
    await act(async () => screen.getByRole('button', { name: 'Verify & Delete Account' }).click());
    await waitFor(() => expect(redirects).toEqual(['/login?deleted=1']));
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(localStorage.getItem('campus.auth')).toBeNull();
    expect(fetchMock.mock.calls.map((c) => new URL(String(c[0]), 'http://x').pathname)).toEqual([
      '/api/users/send-delete-account-otp',
      '/api/users/verify-delete-account-otp',
    ]);
  });

  it('a 401 that signs out before the deletion answers still lands on the deleted notice; a wrong code undoes it', async () => {
    let calls = 0;
    renderSettings({
      '/api/users/send-delete-account-otp': () => ok({ message: 'sent' }),
      '/api/users/verify-delete-account-otp': () => {
        calls++;
        if (calls === 1) return json({ status: 'error', message: 'Invalid or expired OTP' }, 400);
        // The token died with the account: another call's 401 signs out first.
        redirectTo('/');
        return ok({ message: 'Your account has been deleted.' });
      },
    });
    act(() => screen.getByRole('tab', { name: 'Delete Account' }).click());
    act(() => screen.getByRole('button', { name: 'Delete Account' }).click());
    type('Type DELETE to confirm', 'DELETE');
    await act(async () => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect(await screen.findByText('as***')).toBeTruthy();
    enterCode('111111');
    await act(async () => screen.getByRole('button', { name: 'Verify & Delete Account' }).click());
    expect(await screen.findByText('Invalid or expired OTP')).toBeTruthy();
    redirectTo('/elsewhere');
    expect(redirects).toEqual(['/elsewhere']);
    redirects.length = 0;
    enterCode('123456');
    await act(async () => screen.getByRole('button', { name: 'Verify & Delete Account' }).click());
    await waitFor(() => expect(redirects).toEqual(['/login?deleted=1', '/login?deleted=1']));
    leaveTo(null);
  });

  it('uses the fallback messages of docs/product.md §8.4 when the server sent none', async () => {
    expect(settingsErrorMessage(new ApiError('http', 500, 'Server error. Please try again later.', 'db down'), MSG_VERIFY_FAILED)).toBe(
      'Failed to verify OTP. Please try again.',
    );
    expect(settingsErrorMessage(new ApiError('network', 0, 'Network error'), MSG_VERIFY_FAILED)).toBe(MSG_VERIFY_FAILED);
    expect(settingsErrorMessage(new ApiError('http', 400, 'Invalid or expired OTP', 'Invalid or expired OTP'), MSG_VERIFY_FAILED)).toBe(
      'Invalid or expired OTP',
    );
    renderSettings({ '/api/users/send-email-change-otp': () => json({}, 502) });
    type('New email address', 'new@uni.edu');
    await act(async () => screen.getByRole('button', { name: 'Send Verification Code' }).click());
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to send verification code. Please try again.');
  });
});

describe('token rotation', () => {
  it('a socket or call refused for the old token during a change does not sign out', async () => {
    const { withTokenRotation, apiGet, setUnauthorizedHandler } = await import('../../api/http');
    const signedOut = vi.fn();
    const restore = setUnauthorizedHandler(signedOut);
    installFakeFetch({ '/api/notifications': () => fail('Unauthorized', 401) });
    localStorage.setItem('campus.token', 'old');
    let release: () => void = () => {};
    const rotation = withTokenRotation(
      () =>
        new Promise<void>((r) => {
          release = () => {
            localStorage.setItem('campus.token', 'new');
            r();
          };
        }),
    );
    await expect(apiGet('/notifications')).rejects.toThrow();
    expect(signedOut).not.toHaveBeenCalled();
    release();
    await rotation;
    await Promise.resolve();
    expect(signedOut).not.toHaveBeenCalled();
    // Outside a rotation, a 401 for the current token still signs out.
    await expect(apiGet('/notifications')).rejects.toThrow();
    expect(signedOut).toHaveBeenCalledTimes(1);
    restore();
  });
});

describe('Notifications tab (issue 16)', () => {
  it('says when the browser cannot do push, with the switch off and disabled', async () => {
    // happy-dom has no service workers or PushManager, like an old browser.
    renderSettings({});
    fireEvent.click(screen.getByRole('tab', { name: 'Notifications' }));
    const toggle = screen.getByRole('switch', { name: /Push notifications/ }) as HTMLInputElement;
    await screen.findByText('This browser does not support push notifications.');
    expect(toggle.checked).toBe(false);
    expect(toggle.disabled).toBe(true);
  });
});
