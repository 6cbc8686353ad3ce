// The HTTP client for the Campus JSON API.
//
// Every answer of the server is an envelope (docs/protocol.md §1):
//   {"status":"success","data":…}
//   {"status":"error","message":"…","errors":[{"field":"…","msg":"…"}],"retryAfter"?:n}
// `parseEnvelope` turns an answer into its `data` or throws an `ApiError`
// whose message is the user-facing one of docs/product.md §8.1.
//
// Calls carry the bearer token from localStorage (docs/product.md §6) unless they are
// auth calls (`auth: false`). A 401 on an authenticated call clears the token,
// the saved auth state and the current page and sends the browser to '/'
// (docs/product.md §8.1). Uploads go through XMLHttpRequest because fetch cannot report
// upload progress (docs/product.md §2.13 shows a percentage).
//
// A 503 means the server did not carry the call out (a full queue, a commit
// that could not happen in time) and that sending it again is safe (docs/architecture.md
// §4.1): `request` sends it again, up to RETRIES_503 times, after the
// Retry-After delay plus jitter, with the same X-Request-Id, so that the
// server joins a retry to the original rather than doing it twice (a like
// toggled once). The caller sees nothing of it unless every retry fails;
// then the error is the 5xx one of docs/product.md §8.1.

import {
  API_BASE,
  HTTP_TIMEOUT_MS,
  MSG_BAD_REQUEST,
  MSG_NETWORK,
  MSG_OFFLINE,
  MSG_OTHER,
  MSG_SERVER,
  MSG_TIMEOUT,
  UPLOAD_TIMEOUT_MS,
} from '../constants';
import { redirectTo } from '../lib/redirect';
import { clearAuthStorage, readString, STORAGE_KEYS, writeString } from '../lib/storage';

export { API_BASE };

export interface FieldError {
  field: string;
  msg: string;
}

/** Why a call failed. `http`: the server answered with an error. */
export type ApiErrorKind = 'http' | 'invalid-response' | 'network' | 'timeout' | 'aborted';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The `message` of an error envelope, when the server sent one. */
  readonly serverMessage: string | undefined;
  /** The `errors` list of an error envelope (empty when absent or malformed). */
  readonly errors: FieldError[];
  /** Seconds to wait before retrying (429 and 503 answers). */
  readonly retryAfter: number | undefined;
  /** The parsed error body, for the rare caller that needs more than the above. */
  readonly body: unknown;

  constructor(
    kind: ApiErrorKind,
    status: number,
    message: string,
    serverMessage?: string,
    errors: FieldError[] = [],
    retryAfter?: number,
    body?: unknown,
  ) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.serverMessage = serverMessage;
    this.errors = errors;
    this.retryAfter = retryAfter;
    this.body = body;
  }

  /** The message of the error about `field`, if the server sent one. */
  fieldMessage(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.msg;
  }
}

/**
 * Whether a call failed for want of a server to answer — offline, a timeout,
 * or a gateway with no node behind it — rather than by the server's answer:
 * what was last read may stand in until the network is back (issue 27).
 */
export function isNoAnswer(e: unknown): boolean {
  return isApiError(e) && (e.kind === 'network' || e.kind === 'timeout' || e.status === 502 || e.status === 503 || e.status === 504);
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/**
 * The refusal of a suspended account — a login's 403, or the 401 of a token
 * it held — says why and until when in its message, and names the
 * suspension in a field: that message, or null for any other error.
 */
export function suspensionMessage(e: unknown): string | null {
  if (!isApiError(e) || (e.status !== 401 && e.status !== 403)) return null;
  if (e.fieldMessage('suspension') === undefined) return null;
  return e.serverMessage ?? null;
}

/** The message shown for an error answer with this status when the server sent none. */
export function fallbackMessage(status: number): string {
  if (status >= 500) return MSG_SERVER;
  if (status === 400) return MSG_BAD_REQUEST;
  return MSG_OTHER;
}

/**
 * The user-facing message of an error answer (docs/product.md §8.1): 5xx always reads
 * MSG_SERVER (the server's text never reaches the user), otherwise the
 * server's message, else the fallback for the status.
 */
export function errorMessage(status: number, serverMessage: string | undefined): string {
  if (status >= 500) return MSG_SERVER;
  return serverMessage ?? fallbackMessage(status);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseFieldErrors(v: unknown): FieldError[] {
  if (!Array.isArray(v)) return [];
  const out: FieldError[] = [];
  for (const item of v) {
    if (isRecord(item) && typeof item.msg === 'string') {
      out.push({ field: typeof item.field === 'string' ? item.field : '', msg: item.msg });
    }
  }
  return out;
}

function parseRetryAfter(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.ceil(n) : undefined;
}

/**
 * Turns an HTTP answer (status and body text) into the envelope's `data`,
 * or throws an ApiError. `data` is not validated: callers that need more than
 * a shape assertion check it themselves. `retryAfterHeader` is the
 * Retry-After header, used when the body has no retryAfter.
 */
export function parseEnvelope<T>(status: number, bodyText: string, retryAfterHeader?: string | null): T {
  const ok = status >= 200 && status < 300;
  let body: unknown;
  try {
    body = bodyText === '' ? undefined : JSON.parse(bodyText);
  } catch {
    body = undefined;
  }

  if (isRecord(body) && body.status === 'success' && ok) {
    return body.data as T;
  }

  const retryAfter =
    (isRecord(body) ? parseRetryAfter(body.retryAfter) : undefined) ?? parseRetryAfter(retryAfterHeader ?? undefined);

  if (isRecord(body) && body.status === 'error') {
    const serverMessage =
      typeof body.message === 'string' && body.message.trim() !== '' ? body.message : undefined;
    const errors = parseFieldErrors(body.errors);
    throw new ApiError('http', status, errorMessage(status, serverMessage), serverMessage, errors, retryAfter, body);
  }

  if (!ok) {
    throw new ApiError('http', status, fallbackMessage(status), undefined, [], retryAfter);
  }
  // A 2xx answer that is not an envelope (an HTML page from a proxy, an empty body…).
  throw new ApiError('invalid-response', status, MSG_OTHER);
}

// --- auth --------------------------------------------------------------------

/** The stored bearer token, or null when signed out. */
export function getToken(): string | null {
  const t = readString(STORAGE_KEYS.token);
  return t && t.trim() !== '' ? t : null;
}

function defaultUnauthorized(err?: ApiError): void {
  clearAuthStorage();
  // A suspension signs the member out with a reason: the login page says it.
  const why = suspensionMessage(err);
  if (why) writeString(STORAGE_KEYS.signOutNotice, why);
  redirectTo('/');
}

let unauthorizedHandler: (err?: ApiError) => void = defaultUnauthorized;

/**
 * Replaces what a 401 does (tests; the default clears the stored auth and
 * sends the browser to '/'). Returns a function restoring the previous one.
 */
export function setUnauthorizedHandler(fn: (err?: ApiError) => void): () => void {
  const prev = unauthorizedHandler;
  unauthorizedHandler = fn;
  return () => {
    unauthorizedHandler = prev;
  };
}

/** docs/product.md §8.1: a 401 on any authenticated call signs the browser out; err is that 401. */
export function handleUnauthorized(err?: ApiError): void {
  unauthorizedHandler(err);
}

// --- token rotation ------------------------------------------------------------
// Changing the e-mail address or the password revokes every older token and
// answers a new one. Between the revocation and the new token being stored,
// calls made with the old token (and the socket) are refused: those refusals
// must not sign the user out. While a rotation runs, a 401 waits for it; a
// 401 for a token that is no longer the stored one is ignored.

let rotations = 0;
let rotationWaiters: Array<() => void> = [];

/** Runs fn (which calls the server and stores the new token) as a token rotation. */
export async function withTokenRotation<T>(fn: () => Promise<T>): Promise<T> {
  rotations += 1;
  try {
    return await fn();
  } finally {
    rotations -= 1;
    if (rotations === 0) {
      const waiters = rotationWaiters;
      rotationWaiters = [];
      for (const w of waiters) w();
    }
  }
}

/** Resolves when no token rotation is running. */
export function tokenRotationSettled(): Promise<void> {
  if (rotations === 0) return Promise.resolve();
  return new Promise((resolve) => rotationWaiters.push(resolve));
}

/** A 401 (err) for `sentToken`: signs out unless the token was (or is being) replaced. */
function unauthorizedFor(sentToken: string | null, err: ApiError): void {
  if (rotations > 0) {
    void tokenRotationSettled().then(() => {
      if (getToken() === sentToken) handleUnauthorized(err);
    });
    return;
  }
  if (sentToken !== null && getToken() !== sentToken) return;
  handleUnauthorized(err);
}

function authHeaders(auth: boolean): Record<string, string> {
  if (!auth) return {};
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function noAnswerError(timedOut: boolean, aborted: boolean): ApiError {
  if (timedOut) return new ApiError('timeout', 0, MSG_TIMEOUT);
  if (aborted) return new ApiError('aborted', 0, 'Request cancelled');
  return new ApiError('network', 0, isOffline() ? MSG_OFFLINE : MSG_NETWORK);
}

/** Wraps parseEnvelope with the 401 rule. */
function settle<T>(
  status: number,
  text: string,
  retryAfter: string | null,
  opts: { auth: boolean; on401: boolean; sentToken: string | null },
): T {
  try {
    return parseEnvelope<T>(status, text, retryAfter);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && opts.auth && opts.on401) unauthorizedFor(opts.sentToken, e);
    throw e;
  }
}

// --- JSON requests -----------------------------------------------------------

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** JSON-encoded as the request body. */
  body?: unknown;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** Cancels the call (ApiError kind `aborted`). */
  signal?: AbortSignal;
  /** Defaults to the spec's 15 s. */
  timeoutMs?: number;
  /** Send the bearer token (default true). Auth calls (login, signup…) pass false. */
  auth?: boolean;
  /** Apply the 401 rule (default true). Logout turns it off: it signs out anyway. */
  handleUnauthorized?: boolean;
}

/** How many times `request` sends a call again after a 503. */
export const RETRIES_503 = 3;

/**
 * How long to wait before retry number `attempt` (1-based) of a 503: the
 * server's Retry-After (1 s if absent), growing with each attempt, plus up to
 * as much again of random jitter, so that the clients a busy node turned away
 * together do not all come back at the same moment.
 */
export function retryDelayMs(retryAfterSeconds: number | undefined, attempt: number, random: () => number = Math.random): number {
  const base = Math.max(1, retryAfterSeconds ?? 1) * 1000 * attempt;
  return Math.round(base + random() * base);
}

/** A fresh request id (the server accepts [A-Za-z0-9_-], at most 64). */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  let id = '';
  for (let i = 0; i < 32; i++) id += Math.floor(Math.random() * 16).toString(16);
  return id;
}

/** Resolves after ms, or rejects as aborted when signal aborts first. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(noAnswerError(false, true));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(noAnswerError(false, true));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `API_BASE + path` and returns the envelope's data. A 503 is sent
 * again (see above) with the same X-Request-Id.
 */
export async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers = { 'X-Request-Id': newRequestId(), ...opts.headers };
  for (let attempt = 1; ; attempt++) {
    try {
      return await requestOnce<T>(method, path, { ...opts, headers });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 503 || attempt > RETRIES_503) throw e;
      await wait(retryDelayMs(e.retryAfter, attempt), opts.signal);
    }
  }
}

async function requestOnce<T>(method: HttpMethod, path: string, opts: RequestOptions): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? HTTP_TIMEOUT_MS;
  const auth = opts.auth ?? true;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (opts.signal) {
    if (opts.signal.aborted) controller.abort();
    else opts.signal.addEventListener('abort', onCallerAbort, { once: true });
  }

  const sentToken = auth ? getToken() : null;
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(auth), ...opts.headers };
  const init: RequestInit = { method, headers, signal: controller.signal, credentials: 'same-origin' };
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(opts.body);
  }

  try {
    let res: Response;
    let text: string;
    try {
      res = await fetch(API_BASE + path, init);
      text = await res.text();
    } catch {
      throw noAnswerError(timedOut, opts.signal?.aborted === true);
    }
    return settle<T>(res.status, text, res.headers.get('Retry-After'), {
      auth,
      on401: opts.handleUnauthorized ?? true,
      sentToken,
    });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}

export const apiGet = <T>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts);
export const apiPost = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('POST', path, { ...opts, body });
export const apiPut = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('PUT', path, { ...opts, body });
export const apiPatch = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('PATCH', path, { ...opts, body });
export const apiDelete = <T>(path: string, opts?: Omit<RequestOptions, 'body'>) =>
  request<T>('DELETE', path, opts);

// --- uploads -----------------------------------------------------------------

export interface UploadOptions {
  method?: 'POST' | 'PUT' | 'PATCH';
  /** Called with 0–100 while the body is sent. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Defaults to the spec's 60 s for uploads. */
  timeoutMs?: number;
}

/**
 * Sends multipart form data with progress (XMLHttpRequest), with the bearer
 * token, and returns the envelope's data. Errors map exactly as `request`'s.
 */
export function upload<T>(path: string, form: FormData, opts: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let timedOut = false;
    let aborted = false;
    const onCallerAbort = () => {
      aborted = true;
      xhr.abort();
    };
    const done = () => opts.signal?.removeEventListener('abort', onCallerAbort);

    xhr.open(opts.method ?? 'POST', API_BASE + path);
    xhr.timeout = opts.timeoutMs ?? UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    const sentToken = getToken();
    for (const [k, v] of Object.entries(authHeaders(true))) xhr.setRequestHeader(k, v);

    if (opts.onProgress) {
      const report = opts.onProgress;
      xhr.upload.onprogress = (e: ProgressEvent) => {
        if (e.lengthComputable && e.total > 0) report(Math.min(100, Math.round((e.loaded / e.total) * 100)));
      };
    }
    xhr.onload = () => {
      done();
      try {
        resolve(settle<T>(xhr.status, xhr.responseText, xhr.getResponseHeader('Retry-After'), { auth: true, on401: true, sentToken }));
      } catch (e) {
        reject(e);
      }
    };
    xhr.ontimeout = () => {
      timedOut = true;
      done();
      reject(noAnswerError(true, false));
    };
    xhr.onerror = () => {
      done();
      reject(noAnswerError(timedOut, aborted));
    };
    xhr.onabort = () => {
      done();
      reject(noAnswerError(timedOut, true));
    };
    if (opts.signal) {
      if (opts.signal.aborted) {
        aborted = true;
        done();
        reject(noAnswerError(false, true));
        return;
      }
      opts.signal.addEventListener('abort', onCallerAbort, { once: true });
    }
    xhr.send(form);
  });
}
