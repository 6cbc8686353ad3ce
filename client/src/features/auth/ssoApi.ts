// University sign-in (README, "University sign-in"): the page asks the
// server to start a sign-in and goes to the identity provider; the provider
// sends the browser back to /sso/callback with a one-time ticket (or an
// error code, or a link ticket) in the fragment, which the page redeems.

import { apiDelete, apiGet, apiPost } from '../../api/http';
import { isRecord, str } from '../../api/models';
import { parseSessionData, type SessionData } from './validation';

const noAuth = { auth: false } as const;

/** The page the identity provider sends the browser back to. */
export const SSO_CALLBACK_PATH = '/sso/callback';

/** What the callback page's fragment says. */
export type SsoCallback =
  | { kind: 'ticket'; ticket: string }
  | { kind: 'link'; ticket: string; email: string; provider: string }
  | { kind: 'error'; code: string; provider: string };

/** Reads the callback page's fragment (#ticket=… | #link=…&email=…&provider=… | #error=…&provider=…). */
export function parseSsoCallback(hash: string): SsoCallback {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const ticket = p.get('ticket');
  if (ticket) return { kind: 'ticket', ticket };
  const link = p.get('link');
  if (link) return { kind: 'link', ticket: link, email: p.get('email') ?? '', provider: p.get('provider') ?? '' };
  return { kind: 'error', code: p.get('error') ?? 'failed', provider: p.get('provider') ?? '' };
}

/**
 * The message for an error code. The fragment carries only a code, so a
 * crafted link cannot put words on our page: unknown codes get the generic one.
 */
export function ssoErrorMessage(code: string, university: string): string {
  const name = university || 'your university';
  switch (code) {
    case 'cancelled':
      return `Sign-in with ${name} was cancelled. You can try again.`;
    case 'refused':
      return `${name} sent an answer we could not trust, so you were not signed in. Please try again; if it keeps happening, contact your IT help desk.`;
    case 'expired':
      return 'This sign-in took too long or was already used. Please sign in again.';
    case 'unavailable':
      return `${name} cannot be reached right now. Please try again in a few minutes.`;
    case 'domain':
      return `This ${name} account's e-mail address cannot be used here. Sign in with your university account.`;
    case 'incomplete':
      return `Your ${name} account does not say whether you are a student or faculty, or is missing your university ID or department. Please contact your IT help desk.`;
    case 'unverified':
      return `${name} has not verified your e-mail address yet. Please verify it there first.`;
    case 'id_taken':
      return 'An account with this university ID already exists. Sign in with it, then link your university sign-in in Settings.';
    case 'linked_elsewhere':
      return 'This university account is already linked to another account.';
    case 'too_many':
      return 'Too many attempts. Please try again later.';
  }
  return 'Sign-in did not work. Please try again.';
}

/** Starts a university sign-in and answers the identity provider's URL. */
export async function startSso(provider: string, returnTo: string, link?: { password: string }): Promise<string> {
  const body = { provider, returnTo, link: link !== undefined, password: link?.password ?? '' };
  const data = await apiPost<unknown>('/auth/sso/start', body, link ? {} : noAuth);
  const url = isRecord(data) ? str(data.url) : '';
  if (url === '') throw new Error('Sign-in could not start. Please try again.');
  return url;
}

export interface SsoSignIn extends SessionData {
  returnTo: string;
  /** This sign-in made the account: onboarding comes first, as after a sign-up. */
  newAccount: boolean;
}

function parseSsoSignIn(data: unknown): SsoSignIn {
  const s = parseSessionData(data);
  const returnTo = isRecord(data) ? str(data.returnTo) : '';
  return { ...s, returnTo: safeReturnPath(returnTo), newAccount: isRecord(data) && data.newAccount === true };
}

/** The server sends only our own paths; checked again so a bad answer cannot leave the site. */
export function safeReturnPath(p: string): string {
  if (!p.startsWith('/') || p.startsWith('//') || p.startsWith('/\\') || p === SSO_CALLBACK_PATH) return '/';
  return p;
}

/**
 * Where a sign-in started on a signed-out screen comes back to: the address
 * the person opened (a deep link to a post survives the trip to the
 * university), except the sign-in pages themselves.
 */
export function currentReturnPath(loc: { pathname: string; search: string } = window.location): string {
  if (loc.pathname === '/login' || loc.pathname === '/signup') return '/';
  return safeReturnPath(loc.pathname + loc.search);
}

export async function exchangeTicket(ticket: string): Promise<SsoSignIn> {
  return parseSsoSignIn(await apiPost<unknown>('/auth/sso/exchange', { ticket }, noAuth));
}

export async function linkSendCode(ticket: string): Promise<string> {
  const data = await apiPost<unknown>('/auth/sso/link/send-code', { ticket }, noAuth);
  return isRecord(data) ? str(data.message) : '';
}

export async function linkAccount(ticket: string, proof: { password: string } | { otp: string }): Promise<SsoSignIn> {
  return parseSsoSignIn(await apiPost<unknown>('/auth/sso/link', { ticket, ...proof }, noAuth));
}

/** A linked sign-in as Settings shows it. */
export interface LinkedSignIn {
  id: string;
  protocol: string;
  name: string;
  email: string;
  linkedAt: string;
}

export async function fetchSignIns(): Promise<{ signIns: LinkedSignIn[]; hasPassword: boolean }> {
  const data = await apiGet<unknown>('/users/me/sign-ins');
  const list = isRecord(data) && Array.isArray(data.signIns) ? data.signIns : [];
  return {
    signIns: list.filter(isRecord).map((r) => ({
      id: str(r.id),
      protocol: str(r.protocol),
      name: str(r.name),
      email: str(r.email),
      linkedAt: str(r.linkedAt),
    })),
    hasPassword: isRecord(data) && data.hasPassword === true,
  };
}

export async function removeSignIn(id: string): Promise<void> {
  await apiDelete<unknown>(`/users/me/sign-ins/${encodeURIComponent(id)}`);
}

/** Where a closed password screen sends people instead. */
export function ssoOnlyMessage(what: string, sso: ReadonlyArray<{ name: string }>): string {
  const name = sso[0]?.name;
  return name ? `${what} Use “Sign in with ${name}” above.` : what;
}
