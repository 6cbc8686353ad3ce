import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../api/config';
import { currentReturnPath, parseSsoCallback, safeReturnPath, ssoErrorMessage, ssoOnlyMessage } from './ssoApi';

describe('parseSsoCallback', () => {
  it.each([
    ['#ticket=abc', { kind: 'ticket', ticket: 'abc' }],
    ['#email=m%2A%2A%2A%40bwu.edu&provider=oidc&link=xyz', { kind: 'link', ticket: 'xyz', email: 'm***@bwu.edu', provider: 'oidc' }],
    ['#error=cancelled&provider=saml', { kind: 'error', code: 'cancelled', provider: 'saml' }],
    ['#error=cancelled', { kind: 'error', code: 'cancelled', provider: '' }],
    ['', { kind: 'error', code: 'failed', provider: '' }],
  ])('%s', (hash, want) => {
    expect(parseSsoCallback(hash)).toEqual(want);
  });
});

describe('ssoErrorMessage', () => {
  it('names the university for a cancelled sign-in', () => {
    expect(ssoErrorMessage('cancelled', 'Bluewater University')).toBe('Sign-in with Bluewater University was cancelled. You can try again.');
  });
  it('answers a crafted code with the generic message, never the code', () => {
    const m = ssoErrorMessage('Call 555-0100 to fix your account', 'X');
    expect(m).toBe('Sign-in did not work. Please try again.');
  });
});

describe('safeReturnPath', () => {
  it.each([
    ['/post/1', '/post/1'],
    ['https://evil.example', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/sso/callback', '/'],
  ])('%s → %s', (p, want) => expect(safeReturnPath(p)).toBe(want));
});

describe('currentReturnPath', () => {
  it.each([
    [{ pathname: '/post/1', search: '' }, '/post/1'],
    [{ pathname: '/search', search: '?q=%23physics' }, '/search?q=%23physics'],
    [{ pathname: '/login', search: '' }, '/'],
    [{ pathname: '/signup', search: '?x=1' }, '/'],
    [{ pathname: '/sso/callback', search: '' }, '/'],
    [{ pathname: '//evil.example', search: '' }, '/'],
  ])('%o → %s', (loc, want) => expect(currentReturnPath(loc)).toBe(want));
});

describe('normalizeConfig', () => {
  it('reads the university sign-ins and the password switches', () => {
    const c = normalizeConfig({
      productName: 'Campus',
      sso: [{ id: 'oidc', name: 'Bluewater University' }, { id: 'cas', name: 'x' }, { id: 'saml', name: '' }],
      passwordSignup: false,
      passwordLogin: true,
    });
    expect(c.sso).toEqual([{ id: 'oidc', name: 'Bluewater University' }]);
    expect(c.passwordSignup).toBe(false);
    expect(c.passwordLogin).toBe(true);
  });
  it('never closes the password ways in without a sign-in to use instead', () => {
    const c = normalizeConfig({ passwordSignup: false, passwordLogin: false });
    expect(c.passwordSignup).toBe(true);
    expect(c.passwordLogin).toBe(true);
  });
  it('points a closed screen at the university sign-in', () => {
    expect(ssoOnlyMessage('Off.', [{ name: 'BWU' }])).toBe('Off. Use “Sign in with BWU” above.');
  });
});
