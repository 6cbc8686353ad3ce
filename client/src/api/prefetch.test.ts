import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRedirect } from '../lib/redirect';
import { installFakeFetch, json } from '../test/fakeFetch';
import type { EarlyAnswer, EarlyFetch } from './boot';
import { adoptBootFetches, bootHandoff, keepFirstPageCookie, takePrefetched } from './prefetch';

const PATH = '/posts/feed?limit=10';
const page = { posts: [{ id: 'p1' }], nextCursor: null };
const success = (data: unknown): EarlyAnswer => ({ status: 200, text: JSON.stringify({ status: 'success', data }), retryAfter: null });

function handOver(answer: EarlyAnswer | null | Promise<EarlyAnswer | null>, over: Partial<EarlyFetch> = {}) {
  const w = { __campusBoot: { feed: { path: PATH, token: 'tok', at: Date.now(), answer: Promise.resolve(answer), ...over } } };
  adoptBootFetches(w);
  return w;
}

let redirects: string[];
let restoreRedirect: () => void;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('campus.token', 'tok');
  redirects = [];
  restoreRedirect = setRedirect((p) => redirects.push(p));
});
afterEach(() => {
  takePrefetched(PATH); // nothing left for the next test
  restoreRedirect();
  vi.useRealTimers();
});

describe('the bootstrap hand-over', () => {
  it('takes a success for the same token without asking again, once', async () => {
    const fetchMock = installFakeFetch({});
    const w = handOver(success(page));
    expect(w.__campusBoot).toBeUndefined();
    await expect(takePrefetched(PATH)).resolves.toEqual(page);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(takePrefetched(PATH)).toBeUndefined();
  });

  it.each([
    ['a 401', { status: 401, text: JSON.stringify({ status: 'error', message: 'Unauthorized' }), retryAfter: null }],
    ['a 503', { status: 503, text: '', retryAfter: '1' }],
    ['no answer', null],
    ['a body that is not an envelope', { status: 200, text: '<html>', retryAfter: null }],
  ])('asks again the normal way after %s', async (_, answer: EarlyAnswer | null) => {
    const fetchMock = installFakeFetch({ '/api/posts/feed': () => json({ status: 'success', data: page }) });
    handOver(answer);
    await expect(takePrefetched(PATH)).resolves.toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const init = fetchMock.mock.calls[0]?.[1];
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it('applies the 401 rule on the normal ask: signs out', async () => {
    installFakeFetch({ '/api/posts/feed': () => json({ status: 'error', message: 'Unauthorized' }, 401) });
    handOver({ status: 401, text: JSON.stringify({ status: 'error', message: 'Unauthorized' }), retryAfter: null });
    await expect(takePrefetched(PATH)).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(redirects).toEqual(['/']);
  });

  it('does not use an answer for a token the app no longer holds', async () => {
    localStorage.setItem('campus.token', 'newer');
    const fetchMock = installFakeFetch({ '/api/posts/feed': () => json({ status: 'success', data: { posts: [], nextCursor: null } }) });
    handOver(success(page));
    await expect(takePrefetched(PATH)).resolves.toEqual({ posts: [], nextCursor: null });
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>).Authorization).toBe('Bearer newer');
  });

  it('gives an old hand-over to nobody', () => {
    installFakeFetch({});
    handOver(success(page), { at: Date.now() - 16_000 });
    expect(takePrefetched(PATH)).toBeUndefined();
  });

  it('stops waiting for an answer after the usual timeout and asks again', async () => {
    vi.useFakeTimers();
    const fetchMock = installFakeFetch({ '/api/posts/feed': () => json({ status: 'success', data: page }) });
    handOver(new Promise<EarlyAnswer | null>(() => {}));
    const taken = takePrefetched(PATH);
    await vi.advanceTimersByTimeAsync(15_000);
    await expect(taken).resolves.toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('finds nothing to adopt without a bootstrap', () => {
    const w: { __campusBoot?: undefined } = {};
    adoptBootFetches(w);
    expect(takePrefetched(PATH)).toBeUndefined();
  });
});

describe('the first-page cookie (issue 27)', () => {
  it('is asked for with the session token, and a failure is only a missed first page', async () => {
    const calls: { method: string | undefined; auth: string | null }[] = [];
    installFakeFetch({
      '/api/auth/first-page': (init) => {
        calls.push({ method: init?.method, auth: new Headers(init?.headers).get('Authorization') });
        return json({ status: 'error', message: 'Service unavailable' }, 500);
      },
    });
    keepFirstPageCookie();
    await vi.waitFor(() => expect(calls).toEqual([{ method: 'POST', auth: 'Bearer tok' }]));
    expect(redirects).toEqual([]);
  });

  it("what the bootstrap left is read before it is taken", () => {
    const w = { __campusBoot: { painted: true, firstPage: { posts: [], more: false, me: null } } };
    expect(bootHandoff(w)).toEqual({ painted: true, firstPage: { posts: [], more: false, me: null } });
    adoptBootFetches(w);
    expect(w.__campusBoot).toBeUndefined();
  });
});
