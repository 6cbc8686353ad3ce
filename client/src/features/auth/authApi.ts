// The auth calls of docs/product.md §7.1 plus logout and /users/me. Auth calls carry no
// token (`auth: false`), so a 401 there ('Incorrect credentials') is an
// answer for the screen, not a sign-out.

import { apiGet, apiPost } from '../../api/http';
import { isRecord, normalizeUser, str, type Role, type User } from '../../api/models';
import { identifierPayload, parseSessionData, type SessionData, type SignupPayload } from './validation';

const noAuth = { auth: false } as const;

function messageOf(data: unknown): string {
  return isRecord(data) ? str(data.message) : '';
}

export async function signup(payload: SignupPayload): Promise<{ email: string; message: string }> {
  const data = await apiPost<unknown>('/auth/signup', payload, noAuth);
  return { email: (isRecord(data) && str(data.email)) || payload.email, message: messageOf(data) };
}

export async function verifyOtp(email: string, otp: string): Promise<SessionData> {
  return parseSessionData(await apiPost<unknown>('/auth/verify-otp', { email, otp }, noAuth));
}

export async function resendOtp(email: string): Promise<string> {
  return messageOf(await apiPost<unknown>('/auth/resend-otp', { email }, noAuth));
}

export async function login(identifier: string, password: string, role: Role): Promise<SessionData> {
  const data = await apiPost<unknown>('/auth/login', { ...identifierPayload(identifier), password, role }, noAuth);
  return parseSessionData(data);
}

export async function forgotPassword(identifier: string, role: Role): Promise<string> {
  return messageOf(await apiPost<unknown>('/auth/forgot-password', { role, ...identifierPayload(identifier) }, noAuth));
}

export async function resetPassword(identifier: string, role: Role, otp: string, newPassword: string): Promise<string> {
  const body = { otp, newPassword, role, ...identifierPayload(identifier) };
  return messageOf(await apiPost<unknown>('/auth/reset-password', body, noAuth));
}

/**
 * Revokes the token on the server. Signing out locally never waits on it
 * succeeding. Answers where to end the university sign-in's session too
 * (RP-initiated logout), when the token came from one that offers it, else ''.
 */
export async function logout(): Promise<string> {
  const data = await apiPost<unknown>('/auth/logout', undefined, { handleUnauthorized: false });
  const url = isRecord(data) ? str(data.logoutUrl) : '';
  return /^https?:\/\//i.test(url) ? url : '';
}

export async function fetchMe(): Promise<User> {
  const data = await apiGet<unknown>('/users/me');
  if (!isRecord(data) || !isRecord(data.user)) throw new Error('Invalid user data received');
  return normalizeUser(data.user);
}
