import { describe, expect, it, vi } from 'vitest';
import { boot, type BootPlan, type BootWindow } from './boot';

const plan: BootPlan = {
  shell: { scripts: ['/assets/Shell-a.js', '/assets/common-b.js'], styles: ['/assets/Shell-c.css'] },
  signedOut: { scripts: ['/assets/AuthFlow-d.js'], styles: ['/assets/AuthFlow-e.css'] },
  feed: { path: '/posts/feed?limit=10', url: '/api/posts/feed?limit=10', routes: ['/', '/feed'] },
  keys: { token: 'campus.token', auth: 'campus.auth', onboarding: 'campus.onboarding' },
  fullDate: { dateStyle: 'medium', timeStyle: 'short' },
};

const savedUser = JSON.stringify({ isAuthenticated: true, user: { id: 'u1', name: 'Asha' } });

/** A window with this storage and path; fetch answers with answer (or rejects when it is an Error). */
function fakeWindow(storage: Record<string, string>, pathname = '/', answer: { status: number; body: string } | Error = { status: 200, body: '{}' }) {
  const links: { rel: string; as: string; href: string; crossOrigin: string | null }[] = [];
  const fetch = vi.fn((_url: string, _init: { headers: Record<string, string>; credentials: 'same-origin' }) =>
    answer instanceof Error
      ? Promise.reject(answer)
      : Promise.resolve({
          status: answer.status,
          text: () => Promise.resolve(answer.body),
          headers: { get: (name: string) => (name === 'Retry-After' && answer.status === 503 ? '2' : null) },
        }),
  );
  const w: BootWindow = {
    localStorage: { getItem: (k) => storage[k] ?? null },
    location: { pathname },
    document: {
      createElement: () => ({ rel: '', as: '', href: '', crossOrigin: null }),
      head: { appendChild: (l) => links.push(l) },
    },
    fetch,
    crypto: { randomUUID: () => 'req-1' },
    setTimeout: (cb) => cb(),
  };
  return { w, links, fetch };
}

describe('boot', () => {
  it('signed in on the feed: preloads the shell and asks for the first page as the app does', async () => {
    const { w, links, fetch } = fakeWindow({ 'campus.token': 'tok', 'campus.auth': savedUser }, '/', { status: 200, body: '{"status":"success"}' });
    boot(w, plan);
    expect(links).toEqual([
      { rel: 'modulepreload', as: '', href: '/assets/Shell-a.js', crossOrigin: '' },
      { rel: 'modulepreload', as: '', href: '/assets/common-b.js', crossOrigin: '' },
      { rel: 'preload', as: 'style', href: '/assets/Shell-c.css', crossOrigin: '' },
    ]);
    expect(fetch).toHaveBeenCalledWith('/api/posts/feed?limit=10', {
      headers: { Accept: 'application/json', Authorization: 'Bearer tok', 'X-Request-Id': 'req-1' },
      credentials: 'same-origin',
    });
    const feed = w.__campusBoot?.feed;
    expect(feed).toMatchObject({ path: '/posts/feed?limit=10', token: 'tok' });
    await expect(feed?.answer).resolves.toEqual({ status: 200, text: '{"status":"success"}', retryAfter: null });
  });

  it('hands over an error answer as it came, and no answer as null', async () => {
    const signedIn = { 'campus.token': 'tok', 'campus.auth': savedUser };
    const busy = fakeWindow(signedIn, '/feed', { status: 503, body: 'busy' });
    boot(busy.w, plan);
    await expect(busy.w.__campusBoot?.feed?.answer).resolves.toEqual({ status: 503, text: 'busy', retryAfter: '2' });
    const offline = fakeWindow(signedIn, '/', new TypeError('Failed to fetch'));
    boot(offline.w, plan);
    await expect(offline.w.__campusBoot?.feed?.answer).resolves.toBeNull();
  });

  it('signed in elsewhere than the feed: the shell only', () => {
    const { w, links, fetch } = fakeWindow({ 'campus.token': 'tok', 'campus.auth': savedUser }, '/profile/u2');
    boot(w, plan);
    expect(links.map((l) => l.href)).toEqual(['/assets/Shell-a.js', '/assets/common-b.js', '/assets/Shell-c.css']);
    expect(fetch).not.toHaveBeenCalled();
    expect(w.__campusBoot).toBeUndefined();
  });

  it.each([
    ['nothing saved', {}],
    ['a token without a saved user', { 'campus.token': 'tok' }],
    ['a blank token', { 'campus.token': '  ', 'campus.auth': savedUser }],
    ['a corrupt saved state', { 'campus.token': 'tok', 'campus.auth': '{not json' }],
    ['a saved user without an id', { 'campus.token': 'tok', 'campus.auth': JSON.stringify({ user: { name: 'x' } }) }],
  ])('signed out (%s): the sign-in screen, no request', (_, storage: Record<string, string>) => {
    const { w, links, fetch } = fakeWindow(storage);
    boot(w, plan);
    expect(links.map((l) => l.href)).toEqual(['/assets/AuthFlow-d.js', '/assets/AuthFlow-e.css']);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('onboarding: neither screen', () => {
    const { w, links, fetch } = fakeWindow({ 'campus.token': 'tok', 'campus.auth': savedUser, 'campus.onboarding': '{"step":"picture"}' });
    boot(w, plan);
    expect(links).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('blocked storage: the sign-in screen', () => {
    const { w, links } = fakeWindow({});
    w.localStorage.getItem = () => {
      throw new Error('SecurityError');
    };
    boot(w, plan);
    expect(links.map((l) => l.href)).toEqual(['/assets/AuthFlow-d.js', '/assets/AuthFlow-e.css']);
  });
});
