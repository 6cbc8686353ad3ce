// The account calls behind Settings & Privacy (docs/product.md §7.2, §4): e-mail
// change, password change and account deletion, each confirmed by an
// e-mailed code. A resend is the send call again (429 with retryAfter while
// the 60 s cooldown runs). The e-mail and password changes revoke every
// older token and answer a new one.

import { apiPost } from '../../api/http';
import { isRecord, normalizeUser, str, type User } from '../../api/models';

function messageOf(data: unknown): string {
  return isRecord(data) ? str(data.message) : '';
}

function tokenOf(data: unknown): string {
  return isRecord(data) ? str(data.token) : '';
}

export async function sendEmailChangeCode(newEmail: string): Promise<string> {
  return messageOf(await apiPost<unknown>('/users/send-email-change-otp', { newEmail }));
}

export async function verifyEmailChange(otp: string, newEmail: string): Promise<{ message: string; token: string; user: User | null }> {
  const data = await apiPost<unknown>('/users/verify-email-change-otp', { otp, newEmail });
  const user = isRecord(data) && isRecord(data.user) ? normalizeUser(data.user) : null;
  return { message: messageOf(data), token: tokenOf(data), user };
}

export async function sendPasswordChangeCode(currentPassword: string): Promise<string> {
  return messageOf(await apiPost<unknown>('/users/send-password-change-otp', { currentPassword }));
}

export async function verifyPasswordChange(otp: string, newPassword: string): Promise<{ message: string; token: string }> {
  const data = await apiPost<unknown>('/users/verify-password-change-otp', { otp, newPassword });
  return { message: messageOf(data), token: tokenOf(data) };
}

export async function sendDeleteAccountCode(): Promise<string> {
  return messageOf(await apiPost<unknown>('/users/send-delete-account-otp'));
}

export async function verifyDeleteAccount(otp: string): Promise<string> {
  return messageOf(await apiPost<unknown>('/users/verify-delete-account-otp', { otp }));
}
