// Direct API calls for e2e setup steps that are not what a test is about
// (e.g. creating the second user), and probing which routes the server has.

export async function api<T = unknown>(baseURL: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; data: T; message?: string }> {
  const res = await fetch(baseURL + '/api' + path, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: { data?: T; message?: string } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    // not JSON
  }
  return { status: res.status, data: json.data as T, message: json.message };
}

/** True when the server routes `method path` (an unknown API route answers 404 or 405). */
export async function hasRoute(baseURL: string, method: string, path: string): Promise<boolean> {
  const res = await fetch(baseURL + '/api' + path, { method, headers: { Accept: 'application/json' } });
  await res.text();
  return res.status !== 404 && res.status !== 405;
}

let seq = 0;
/** A unique suffix for names and addresses within one run. */
export function unique(): string {
  seq += 1;
  return `${Date.now().toString(36)}${seq}`;
}
