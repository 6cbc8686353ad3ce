// A small HTTP helper for the Campus JSON API.
//
// Every answer of the server is an envelope (DESIGN §5):
//   {"status":"success","data":…}
//   {"status":"error","message":"…","errors":[{"field":"…","msg":"…"}]}
// `parseEnvelope` turns an answer into its `data` or throws an `ApiError`.
// The full error mapping of spec §8.1 (401 → clear auth + '/', etc.) is layered
// on top of this in a later issue; the fallback messages here already follow it.

import { HTTP_TIMEOUT_MS } from '../constants';

export const API_BASE = '/api';

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

  constructor(
    kind: ApiErrorKind,
    status: number,
    message: string,
    serverMessage?: string,
    errors: FieldError[] = [],
  ) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.serverMessage = serverMessage;
    this.errors = errors;
  }

  /** The message of the error about `field`, if the server sent one. */
  fieldMessage(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.msg;
  }
}

// Messages of spec §8.1, as written there.
export const MSG_TIMEOUT = 'Request timed out. The server might be busy. Please try again later.';
export const MSG_NETWORK = 'Network error. Please check your connection or try again later.';
export const MSG_OFFLINE = 'You are offline. Please check your internet connection and try again.';
export const MSG_SERVER = 'Server error. Please try again later.';
export const MSG_BAD_REQUEST = 'Invalid request';
export const MSG_OTHER = 'An error occurred';

/** The message shown for an error answer with this status when the server sent none. */
export function fallbackMessage(status: number): string {
  if (status >= 500) return MSG_SERVER;
  if (status === 400) return MSG_BAD_REQUEST;
  return MSG_OTHER;
}

/**
 * The user-facing message of an error answer (spec §8.1): 5xx always reads
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

/**
 * Turns an HTTP answer (status and body text) into the envelope's `data`,
 * or throws an ApiError. `data` is not validated: callers that need more than
 * a shape assertion check it themselves.
 */
export function parseEnvelope<T>(status: number, bodyText: string): T {
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

  if (isRecord(body) && body.status === 'error') {
    const serverMessage =
      typeof body.message === 'string' && body.message.trim() !== '' ? body.message : undefined;
    const errors = parseFieldErrors(body.errors);
    throw new ApiError('http', status, errorMessage(status, serverMessage), serverMessage, errors);
  }

  if (!ok) {
    throw new ApiError('http', status, fallbackMessage(status));
  }
  // A 2xx answer that is not an envelope (an HTML page from a proxy, an empty body…).
  throw new ApiError('invalid-response', status, MSG_OTHER);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** JSON-encoded as the request body. */
  body?: unknown;
  /** Extra headers (e.g. Authorization, added by the auth layer later). */
  headers?: Record<string, string>;
  /** Cancels the call (ApiError kind `aborted`). */
  signal?: AbortSignal;
  /** Defaults to the spec's 15 s. */
  timeoutMs?: number;
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Calls `API_BASE + path` and returns the envelope's data. */
export async function request<T>(
  method: HttpMethod,
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? HTTP_TIMEOUT_MS;
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

  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
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
      if (timedOut) throw new ApiError('timeout', 0, MSG_TIMEOUT);
      if (opts.signal?.aborted) throw new ApiError('aborted', 0, 'Request cancelled');
      throw new ApiError('network', 0, isOffline() ? MSG_OFFLINE : MSG_NETWORK);
    }
    return parseEnvelope<T>(res.status, text);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
}

export const apiGet = <T>(path: string, opts?: Omit<RequestOptions, 'body'>) =>
  request<T>('GET', path, opts);
export const apiPost = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('POST', path, { ...opts, body });
export const apiPut = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('PUT', path, { ...opts, body });
export const apiPatch = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('PATCH', path, { ...opts, body });
export const apiDelete = <T>(path: string, opts?: Omit<RequestOptions, 'body'>) =>
  request<T>('DELETE', path, opts);
