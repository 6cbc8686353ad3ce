import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRedirect } from '../lib/redirect';
import { installFakeFetch, json } from '../test/fakeFetch';
import { installFakeXhr } from '../test/fakeXhr';
import { MSG_BAD_REQUEST, MSG_NETWORK, MSG_OFFLINE, MSG_OTHER, MSG_SERVER, MSG_TIMEOUT } from '../constants';
import { ApiError, apiDelete, apiGet, apiPatch, apiPost, parseEnvelope, RETRIES_503, retryDelayMs, upload } from './http';

function catchError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('parseEnvelope', () => {
  it('returns data of a success envelope', () => {
    const data = parseEnvelope<{ status: string }>(200, '{"status":"success","data":{"status":"ok"}}');
    expect(data).toEqual({ status: 'ok' });
  });

  it('returns null or array data as is', () => {
    expect(parseEnvelope(200, '{"status":"success","data":null}')).toBeNull();
    expect(parseEnvelope(201, '{"status":"success","data":[1,2]}')).toEqual([1, 2]);
  });

  it('throws the server message of an error envelope', () => {
    const e = catchError(() =>
      parseEnvelope(409, '{"status":"error","message":"This email is already registered"}'),
    );
    expect(e.kind).toBe('http');
    expect(e.status).toBe(409);
    expect(e.message).toBe('This email is already registered');
    expect(e.serverMessage).toBe('This email is already registered');
    expect(e.errors).toEqual([]);
  });

  it('keeps the field list of an error envelope', () => {
    const body = JSON.stringify({
      status: 'error',
      message: 'Validation failed',
      errors: [
        { field: 'email', msg: 'Invalid e-mail' },
        { field: 'password', msg: 'Password must be at least 8 characters' },
        { field: 'junk' }, // no msg: dropped
        'not an object',
      ],
    });
    const e = catchError(() => parseEnvelope(400, body));
    expect(e.status).toBe(400);
    expect(e.message).toBe('Validation failed');
    expect(e.errors).toEqual([
      { field: 'email', msg: 'Invalid e-mail' },
      { field: 'password', msg: 'Password must be at least 8 characters' },
    ]);
    expect(e.fieldMessage('password')).toBe('Password must be at least 8 characters');
    expect(e.fieldMessage('name')).toBeUndefined();
  });

  it('falls back to the docs/product.md §8.1 message when the envelope has none', () => {
    expect(catchError(() => parseEnvelope(400, '{"status":"error","errors":[]}')).message).toBe(
      MSG_BAD_REQUEST,
    );
    expect(catchError(() => parseEnvelope(404, '{"status":"error","message":""}')).message).toBe(
      MSG_OTHER,
    );
  });

  it('never shows the server text of a 5xx answer', () => {
    const e = catchError(() =>
      parseEnvelope(500, '{"status":"error","message":"pq: relation users does not exist"}'),
    );
    expect(e.message).toBe(MSG_SERVER);
    expect(e.serverMessage).toBe('pq: relation users does not exist');
  });

  it('treats an error envelope with a 2xx status as an error', () => {
    const e = catchError(() => parseEnvelope(200, '{"status":"error","message":"Nope"}'));
    expect(e.kind).toBe('http');
    expect(e.message).toBe('Nope');
  });

  it('handles a non-JSON error body', () => {
    const e502 = catchError(() => parseEnvelope(502, '<html><body>Bad Gateway</body></html>'));
    expect(e502.kind).toBe('http');
    expect(e502.status).toBe(502);
    expect(e502.message).toBe(MSG_SERVER);
    expect(e502.serverMessage).toBeUndefined();

    const e400 = catchError(() => parseEnvelope(400, 'bad request'));
    expect(e400.message).toBe(MSG_BAD_REQUEST);

    const e404 = catchError(() => parseEnvelope(404, ''));
    expect(e404.message).toBe(MSG_OTHER);
  });

  it('rejects a 2xx answer that is not an envelope', () => {
    expect(catchError(() => parseEnvelope(200, '<!doctype html><title>x</title>')).kind).toBe(
      'invalid-response',
    );
    expect(catchError(() => parseEnvelope(200, '')).kind).toBe('invalid-response');
    expect(catchError(() => parseEnvelope(200, '{"data":{}}')).kind).toBe('invalid-response');
    expect(catchError(() => parseEnvelope(200, '[1,2,3]')).kind).toBe('invalid-response');
  });
});

describe('request', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls /api + path and returns data', async () => {
    const fetchMock = installFakeFetch({
      '/api/health': () => json({ status: 'success', data: { status: 'ok' } }),
    });
    await expect(apiGet('/health')).resolves.toEqual({ status: 'ok' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/health');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
  });

  it('sends a JSON body', async () => {
    const fetchMock = installFakeFetch({
      '/api/echo': (init) => json({ status: 'success', data: JSON.parse(String(init?.body)) }),
    });
    await expect(apiPost('/echo', { a: 1 })).resolves.toEqual({ a: 1 });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('rejects with the error envelope', async () => {
    installFakeFetch({
      '/api/auth/login': () =>
        json({ status: 'error', message: 'Incorrect credentials', errors: [] }, 401),
    });
    await expect(apiPost('/auth/login', {})).rejects.toMatchObject({
      kind: 'http',
      status: 401,
      message: 'Incorrect credentials',
    });
  });

  it('reports a failed connection as a network error', async () => {
    installFakeFetch({});
    await expect(apiGet('/nowhere')).rejects.toMatchObject({
      kind: 'network',
      status: 0,
      message: MSG_NETWORK,
    });
  });

  it('says so when the browser is offline', async () => {
    installFakeFetch({});
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await expect(apiGet('/nowhere')).rejects.toMatchObject({ kind: 'network', message: MSG_OFFLINE });
  });

  it('times out after the given time', async () => {
    vi.useFakeTimers();
    installFakeFetch({
      '/api/slow': (init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    });
    const p = apiGet('/slow', { timeoutMs: 1000 });
    const check = expect(p).rejects.toMatchObject({ kind: 'timeout', message: MSG_TIMEOUT });
    await vi.advanceTimersByTimeAsync(1000);
    await check;
  });

  it('can be cancelled by the caller', async () => {
    installFakeFetch({
      '/api/slow': (init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    });
    const controller = new AbortController();
    const p = apiGet('/slow', { signal: controller.signal });
    controller.abort();
    await expect(p).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('503 retries (docs/architecture.md §4.1 backpressure)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const busy = (retryAfter?: number) =>
    new Response(JSON.stringify({ status: 'error', message: 'The service is busy.', retryAfter }), {
      status: 503,
      headers: retryAfter ? { 'Content-Type': 'application/json', 'Retry-After': String(retryAfter) } : {},
    });
  const requestIds = (fetchMock: ReturnType<typeof installFakeFetch>) =>
    fetchMock.mock.calls.map((c) => (c[1]!.headers as Record<string, string>)['X-Request-Id']);

  it('sends a 503 again with the same X-Request-Id and resolves with the later answer', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fetchMock = installFakeFetch({
      '/api/posts/p1/like': () => (++calls < 3 ? busy(1) : json({ status: 'success', data: { isLiked: true } })),
    });
    const p = apiPatch('/posts/p1/like');
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(p).resolves.toEqual({ isLiked: true });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const ids = requestIds(fetchMock);
    expect(ids[0]).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(ids).size).toBe(1);
  });

  it('gives each call its own request id', async () => {
    const fetchMock = installFakeFetch({ '/api/a': () => json({ status: 'success', data: null }) });
    await apiGet('/a');
    await apiGet('/a');
    const ids = requestIds(fetchMock);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it(`gives up after ${RETRIES_503} retries with the docs/product.md §8.1 5xx message`, async () => {
    vi.useFakeTimers();
    const fetchMock = installFakeFetch({ '/api/a': () => busy(1) });
    const p = apiPost('/a');
    const check = expect(p).rejects.toMatchObject({ status: 503, message: MSG_SERVER, retryAfter: 1 });
    await vi.advanceTimersByTimeAsync(60_000);
    await check;
    expect(fetchMock).toHaveBeenCalledTimes(1 + RETRIES_503);
  });

  it('waits at least Retry-After before sending again', async () => {
    vi.useFakeTimers();
    const fetchMock = installFakeFetch({ '/api/a': () => busy(5) });
    const p = apiGet('/a').catch(() => undefined);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_001);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(120_000);
    await p;
  });

  it('does not retry other errors', async () => {
    for (const status of [500, 502, 429, 400]) {
      const fetchMock = installFakeFetch({ '/api/a': () => json({ status: 'error', retryAfter: 1 }, status) });
      await expect(apiGet('/a')).rejects.toMatchObject({ status });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    }
  });

  it('stops waiting when the caller cancels', async () => {
    vi.useFakeTimers();
    const fetchMock = installFakeFetch({ '/api/a': () => busy(1) });
    const controller = new AbortController();
    const p = apiGet('/a', { signal: controller.signal });
    const check = expect(p).rejects.toMatchObject({ kind: 'aborted' });
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await check;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('spreads the retries: Retry-After, growing per attempt, plus up to as much jitter', () => {
    expect(retryDelayMs(1, 1, () => 0)).toBe(1000);
    expect(retryDelayMs(1, 1, () => 0.999)).toBe(1999);
    expect(retryDelayMs(undefined, 2, () => 0.5)).toBe(3000);
    expect(retryDelayMs(3, 3, () => 0)).toBe(9000);
  });
});

// --- auth, 401 and uploads (docs/product.md §6, §8.1) ------------------------------------


describe('auth and the 401 rule', () => {
  let redirects: string[] = [];
  let restore: () => void = () => {};
  beforeEach(() => {
    localStorage.clear();
    redirects = [];
    restore = setRedirect((p) => redirects.push(p));
  });
  afterEach(() => restore());

  it('sends the stored bearer token', async () => {
    localStorage.setItem('campus.token', 'tok-123');
    const fetchMock = installFakeFetch({ '/api/users/me': () => json({ status: 'success', data: {} }) });
    await apiGet('/users/me');
    const headers = fetchMock.mock.calls[0]![1]!.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-123');
  });

  it('sends no token on auth calls', async () => {
    localStorage.setItem('campus.token', 'tok-123');
    const fetchMock = installFakeFetch({ '/api/auth/login': () => json({ status: 'success', data: {} }) });
    await apiPost('/auth/login', {}, { auth: false });
    const headers = fetchMock.mock.calls[0]![1]!.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  it('on a 401 clears the token, saved auth state and current page and goes to /', async () => {
    localStorage.setItem('campus.token', 'tok');
    localStorage.setItem('campus.auth', '{"user":{"id":"u1"}}');
    sessionStorage.setItem('campus.page', 'friends');
    localStorage.setItem('campus.theme', 'dark');
    installFakeFetch({ '/api/posts/feed': () => json({ status: 'error', message: 'Unauthorized' }, 401) });
    await expect(apiGet('/posts/feed')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(localStorage.getItem('campus.auth')).toBeNull();
    expect(sessionStorage.getItem('campus.page')).toBeNull();
    expect(localStorage.getItem('campus.theme')).toBe('dark');
    expect(redirects).toEqual(['/']);
  });

  it('leaves a 401 on an auth call to the screen (Incorrect credentials)', async () => {
    sessionStorage.setItem('campus.page', 'feed');
    installFakeFetch({ '/api/auth/login': () => json({ status: 'error', message: 'Incorrect credentials' }, 401) });
    await expect(apiPost('/auth/login', {}, { auth: false })).rejects.toMatchObject({ message: 'Incorrect credentials' });
    expect(redirects).toEqual([]);
    expect(sessionStorage.getItem('campus.page')).toBe('feed');
  });

  it('maps 400, 404 and 5xx as docs/product.md §8.1 says and keeps retryAfter', async () => {
    installFakeFetch({
      '/api/a': () => json({ status: 'error' }, 400),
      '/api/b': () => json({ status: 'error', message: 'Post not found' }, 404),
      '/api/c': () => json({ status: 'error', message: 'secret stack' }, 502),
      '/api/d': () => json({ status: 'error', message: 'Please wait', retryAfter: 42 }, 429),
    });
    await expect(apiGet('/a')).rejects.toMatchObject({ message: 'Invalid request' });
    await expect(apiDelete('/b')).rejects.toMatchObject({ message: 'Post not found' });
    await expect(apiGet('/c')).rejects.toMatchObject({ message: 'Server error. Please try again later.' });
    await expect(apiGet('/d')).rejects.toMatchObject({ message: 'Please wait', retryAfter: 42 });
  });
});

describe('upload', () => {
  let redirects: string[] = [];
  let restore: () => void = () => {};
  beforeEach(() => {
    localStorage.clear();
    redirects = [];
    restore = setRedirect((p) => redirects.push(p));
  });
  afterEach(() => restore());

  it('posts the form with the token, reports progress and resolves data', async () => {
    localStorage.setItem('campus.token', 'tok');
    const Xhr = installFakeXhr();
    const seen: number[] = [];
    const form = new FormData();
    const p = upload<{ post: { id: string } }>('/posts', form, { onProgress: (n) => seen.push(n) });
    const xhr = Xhr.instances[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/posts');
    expect(xhr.timeout).toBe(60_000);
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    expect(xhr.body).toBe(form);
    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.respond(201, { status: 'success', data: { post: { id: 'p1' } } });
    await expect(p).resolves.toEqual({ post: { id: 'p1' } });
    expect(seen).toEqual([25, 100]);
  });

  it('maps timeout, network and offline failures', async () => {
    const Xhr = installFakeXhr();
    const t = upload('/posts', new FormData());
    Xhr.instances[0]!.timeoutNow();
    await expect(t).rejects.toMatchObject({ kind: 'timeout', message: MSG_TIMEOUT });

    const n = upload('/posts', new FormData());
    Xhr.instances[1]!.fail();
    await expect(n).rejects.toMatchObject({ kind: 'network', message: MSG_NETWORK });

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const o = upload('/posts', new FormData());
    Xhr.instances[2]!.fail();
    await expect(o).rejects.toMatchObject({ kind: 'network', message: MSG_OFFLINE });
  });

  it('applies the 401 rule', async () => {
    localStorage.setItem('campus.token', 'tok');
    const Xhr = installFakeXhr();
    const p = upload('/profile/avatar', new FormData());
    Xhr.instances[0]!.respond(401, { status: 'error', message: 'Unauthorized' });
    await expect(p).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('campus.token')).toBeNull();
    expect(redirects).toEqual(['/']);
  });
});
