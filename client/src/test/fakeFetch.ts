import { vi } from 'vitest';

/** An answer for one path; `url` is the whole address asked (its query, for paged calls). */
export type Route = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

/** Answers a JSON body with the given status. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Stubs global fetch with a table of path → answer. Unknown paths reject like
 * a refused connection. Returns the mock to inspect calls.
 */
export function installFakeFetch(routes: Record<string, Route>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url, 'http://localhost');
    const route = routes[parsed.pathname];
    if (!route) throw new TypeError('Failed to fetch');
    return route(init, parsed);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
