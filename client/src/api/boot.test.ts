import { describe, expect, it, vi } from 'vitest';
import { boot, type BootPlan, type BootWindow } from './boot';

const plan: BootPlan = {
  shell: { scripts: ['/assets/Shell-a.js', '/assets/common-b.js'], styles: ['/assets/Shell-c.css'] },
  signedOut: { scripts: ['/assets/AuthFlow-d.js'], styles: ['/assets/AuthFlow-e.css'] },
  feed: { path: '/posts/feed?limit=10', url: '/api/posts/feed?limit=10', routes: ['/', '/feed'] },
  keys: { token: 'campus.token', auth: 'campus.auth', onboarding: 'campus.onboarding' },
  fullDate: { dateStyle: 'medium', timeStyle: 'short' },
  firstPage: { id: 'campus-first-page', forget: '/api/auth/first-page' },
};

const savedUser = JSON.stringify({ isAuthenticated: true, user: { id: 'u1', name: 'Asha' } });

/** The document's first-page data block: its data-user and text. */
interface Block {
  user: string;
  text: string;
}

/**
 * A window with this storage and path; fetch answers with answer (or
 * rejects when it is an Error); the document has the first-page block when
 * given one.
 */
function fakeWindow(
  storage: Record<string, string>,
  pathname = '/',
  answer: { status: number; body: string } | Error = { status: 200, body: '{}' },
  block: Block | null = null,
) {
  const links: { rel: string; as: string; href: string; crossOrigin: string | null }[] = [];
  const fetch = vi.fn((_url: string, _init: { headers: Record<string, string>; credentials: 'same-origin'; method?: string }) =>
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
      getElementById: (id) =>
        block && id === 'campus-first-page'
          ? { textContent: block.text, getAttribute: (name: string) => (name === 'data-user' ? block.user : null) }
          : null,
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

  describe('the first page in the document', () => {
    const signedIn = { 'campus.token': 'tok', 'campus.auth': savedUser };
    const posts = [{ id: 'p1', content: 'Hello' }];
    const page = JSON.stringify({ status: 'success', data: { posts, nextCursor: 'c1' } });

    it("this session's: the early answer, with no request, and the painter's page", async () => {
      const { w, links, fetch } = fakeWindow(signedIn, '/', undefined, { user: 'u1', text: page });
      boot(w, plan);
      expect(fetch).not.toHaveBeenCalled();
      const feed = w.__campusBoot?.feed;
      expect(feed).toMatchObject({ path: '/posts/feed?limit=10', token: 'tok' });
      await expect(feed?.answer).resolves.toEqual({ status: 200, text: page, retryAfter: null });
      expect(w.__campusBoot?.firstPage).toEqual({ posts, more: true, me: { id: 'u1', name: 'Asha' } });
      // The shell's files still come early.
      expect(links.map((l) => l.href)).toEqual(['/assets/Shell-a.js', '/assets/common-b.js', '/assets/Shell-c.css']);
    });

    it.each([
      ["another user's", { user: 'u2', text: page }],
      ['not a success', { user: 'u1', text: JSON.stringify({ status: 'error', message: 'x' }) }],
      ['not JSON', { user: 'u1', text: '{"status":' }],
      ['without posts', { user: 'u1', text: JSON.stringify({ status: 'success', data: {} }) }],
    ])('%s: not used; the feed is asked for as usual', (_, block: Block) => {
      const { w, fetch } = fakeWindow(signedIn, '/', undefined, block);
      boot(w, plan);
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(fetch.mock.calls[0]![0]).toBe('/api/posts/feed?limit=10');
      expect(w.__campusBoot?.firstPage).toBeUndefined();
    });

    it('away from the feed: not used', () => {
      const { w, fetch } = fakeWindow(signedIn, '/profile/u2', undefined, { user: 'u1', text: page });
      boot(w, plan);
      expect(fetch).not.toHaveBeenCalled();
      expect(w.__campusBoot).toBeUndefined();
    });

    it('with no session here: its cookie is dropped', () => {
      const { w, fetch } = fakeWindow({}, '/', undefined, { user: 'u1', text: page });
      boot(w, plan);
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(fetch).toHaveBeenCalledWith('/api/auth/first-page', {
        method: 'DELETE',
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      });
      expect(w.__campusBoot).toBeUndefined();
    });
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
