// The bootstrap index.html runs inline in its head (issue 16, first-load
// budget). Without it the first screen's chunks were asked for only once the
// main chunk had downloaded and run, and the feed's first page once main.tsx
// ran: on a slow phone, two round trips in a row after the document's. This
// starts them while the main chunk downloads: the signed-in shell's chunks
// and stylesheets (modulepreload / preload, so nothing runs or applies
// early) and the feed's first page, or, signed out, the sign-in screen's
// chunks.
//
// The feed's document may carry its first page already (issue 27: a data
// block the server writes for the holder of the first-page cookie,
// httpapi/firstpage.go). When it is this session's, the bootstrap hands it
// over as the early answer — no request at all — and to the painter
// (api/paint.ts), which paints it before the app's code arrives. Another
// session's page is left unused; one the browser has no session for has
// its cookie dropped.
//
// vite.config.ts writes `(boot)(window, plan)` into index.html at build,
// with the plan's hashed file names; the server allows that one script by
// its hash (httpapi/static.go). It runs before any module, so it must be
// self-contained: no imports, nothing from this file but its parameters, and
// only structural types (vite.config.ts, type-checked without the DOM's,
// imports it). Anything it gets wrong costs a wasted preload, never a wrong
// screen: the app decides as before, and takes the early answer only if it
// is a success for the token it still holds (api/prefetch.ts).

/** The early GET's answer, as the bootstrap read it; null when none came (network error). */
export interface EarlyAnswer {
  status: number;
  text: string;
  retryAfter: string | null;
}

/** A GET the bootstrap started, for the app to take. */
export interface EarlyFetch {
  /** The API path, as apiGet takes it ("/posts/feed?limit=10"). */
  path: string;
  /** The bearer token it was sent with. */
  token: string;
  /** Date.now() when it was sent. */
  at: number;
  answer: Promise<EarlyAnswer | null>;
}

/** The feed's first page the document carried, for the painter. */
export interface FirstPageHandoff {
  /** The page's posts, as the API sends them. */
  posts: unknown[];
  /** Whether a next page follows (the page has a cursor). */
  more: boolean;
  /** The signed-in user, as saved (the composer's name and avatar). */
  me: unknown;
}

/** What the bootstrap hands the app (window.__campusBoot). */
export interface BootHandoff {
  feed?: EarlyFetch;
  /** Set when the document's first page is this session's: feed's answer is it. */
  firstPage?: FirstPageHandoff;
  /** Set by the painter once the first page is on screen (the app then replaces it). */
  painted?: boolean;
}

/** The files of one screen: module chunks and stylesheets, as site paths. */
export interface BootAssets {
  scripts: string[];
  styles: string[];
}

export interface BootPlan {
  /** The signed-in shell's. */
  shell: BootAssets;
  /** The sign-in screens'. */
  signedOut: BootAssets;
  /** The feed's first page: its API path, its URL, and the pages that open on the feed. */
  feed: { path: string; url: string; routes: string[] };
  /** The localStorage keys of the token, the saved auth state and onboarding (lib/storage). */
  keys: { token: string; auth: string; onboarding: string };
  /** The options of the posts' full dates (lib/time's fullDate). */
  fullDate: Intl.DateTimeFormatOptions;
  /** The document's first-page data block (its element id), and where to drop its cookie. */
  firstPage: { id: string; forget: string };
}

interface BootLink {
  rel: string;
  as: string;
  href: string;
  crossOrigin: string | null;
}

interface BootResponse {
  status: number;
  text(): Promise<string>;
  headers: { get(name: string): string | null };
}

/** The data block of the document's first page. */
interface BootDataBlock {
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/** The part of window the bootstrap uses. */
export interface BootWindow {
  localStorage: { getItem(key: string): string | null };
  location: { pathname: string };
  document: {
    createElement(tag: 'link'): BootLink;
    head: { appendChild(node: BootLink): unknown };
    getElementById(id: string): BootDataBlock | null;
  };
  fetch(url: string, init: { headers: Record<string, string>; credentials: 'same-origin'; method?: string }): Promise<BootResponse>;
  crypto?: { randomUUID?: () => string };
  setTimeout(callback: () => void, ms: number): unknown;
  __campusBoot?: BootHandoff;
}

/** The path of the feed's first page, as the feed asks for it. */
export function feedFirstPagePath(limit: number): string {
  return `/posts/feed?limit=${limit}`;
}

export function boot(w: BootWindow, plan: BootPlan): void {
  // Signed in as readSavedSession (features/auth/authAtoms) has it: a token
  // and a saved user with an id; onboarding (a saved record) shows neither
  // screen preloaded here.
  let token: string | null = null;
  let signedIn = false;
  let onboarding = false;
  let userId = '';
  let user: unknown = null;
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  try {
    token = w.localStorage.getItem(plan.keys.token);
    const saved: unknown = JSON.parse(w.localStorage.getItem(plan.keys.auth) ?? 'null');
    user = isRecord(saved) ? saved.user : null;
    if (isRecord(user)) userId = typeof user.id === 'string' && user.id !== '' ? user.id : typeof user._id === 'string' ? user._id : '';
    signedIn = token !== null && token.trim() !== '' && userId !== '';
    onboarding = isRecord(JSON.parse(w.localStorage.getItem(plan.keys.onboarding) ?? 'null'));
  } catch {
    // Blocked storage or a corrupt record: the app signs out, as this assumes.
    signedIn = false;
  }

  // The document's first page: the server puts its data block above this script.
  const block = w.document.getElementById(plan.firstPage.id);
  if (block && !signedIn) {
    // A page with no session here (signed out where the server did not
    // hear of it): its cookie goes, so the next document carries none.
    w.fetch(plan.firstPage.forget, { method: 'DELETE', headers: { Accept: 'application/json' }, credentials: 'same-origin' }).catch(() => null);
  }
  if (signedIn && onboarding) return;

  const onFeed = signedIn && plan.feed.routes.indexOf(w.location.pathname) >= 0;
  let page: FirstPageHandoff | null = null;
  let text = '';
  if (onFeed && block && block.getAttribute('data-user') === userId) {
    try {
      text = block.textContent ?? '';
      const env: unknown = JSON.parse(text);
      const data = isRecord(env) && env.status === 'success' && isRecord(env.data) ? env.data : null;
      if (data && Array.isArray(data.posts)) page = { posts: data.posts, more: typeof data.nextCursor === 'string' && data.nextCursor !== '', me: user };
    } catch {
      // Not a page: asked for as usual below.
    }
  }

  if (onFeed && page && token !== null) {
    // This session's page, in the document: it is the early answer.
    w.__campusBoot = {
      feed: { path: plan.feed.path, token, at: Date.now(), answer: Promise.resolve({ status: 200, text, retryAfter: null }) },
      firstPage: page,
    };
  } else if (onFeed && token !== null) {
    // First: of the requests below it waits longest (the server's work and a
    // round trip), and HTTP/1.1's six connections make the last ones queue.
    // The headers request() in api/http.ts sends.
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
    if (w.crypto && typeof w.crypto.randomUUID === 'function') headers['X-Request-Id'] = w.crypto.randomUUID();
    const answer = w
      .fetch(plan.feed.url, { headers, credentials: 'same-origin' })
      .then((res) => res.text().then((text) => ({ status: res.status, text, retryAfter: res.headers.get('Retry-After') })))
      .catch(() => null);
    w.__campusBoot = { feed: { path: plan.feed.path, token, at: Date.now(), answer } };
  }

  const assets = signedIn ? plan.shell : plan.signedOut;
  // crossorigin as the module loader and Vite's preload helper ask, or the
  // preloaded response would not be the one they use.
  const link = (rel: string, as: string, href: string) => {
    const l = w.document.createElement('link');
    l.rel = rel;
    if (as !== '') l.as = as;
    l.crossOrigin = '';
    l.href = href;
    w.document.head.appendChild(l);
  };
  for (const href of assets.scripts) link('modulepreload', '', href);
  for (const href of assets.styles) link('preload', 'style', href);

  if (signedIn && !page) {
    // The first date format costs the engine's locale data (~25 ms, four
    // times that on a slow phone) in the feed's first render; paid here
    // instead, while the chunks download (the formatter is kept by the
    // engine's cache, not by us). Over a first page the painter pays it,
    // once the page is on screen.
    w.setTimeout(() => {
      try {
        new Intl.DateTimeFormat(undefined, plan.fullDate).format(0);
      } catch {
        // Only a warm-up.
      }
    }, 0);
  }
}
