import { act, cleanup, render, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boot, type BootHandoff, type BootPlan, type BootWindow } from '../../api/boot';
import { paint, type PaintWindow } from '../../api/paint';
import { paintPlan } from '../../api/paintPlan';
import { adoptBootFetches, bootHandoff } from '../../api/prefetch';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { FeedPage } from './FeedPage';

// The painter (api/paint.ts) and the feed must show the same first page:
// the same elements with the same classes, text and sizes (so the app's
// stylesheets place them alike), from the same data — the store seeded from
// the document's data block, with no request for the feed.

const plan = paintPlan();

const bootPlan: BootPlan = {
  shell: { scripts: [], styles: [] },
  signedOut: { scripts: [], styles: [] },
  feed: { path: '/posts/feed?limit=10', url: '/api/posts/feed?limit=10', routes: ['/', '/feed'] },
  keys: { token: 'campus.token', auth: 'campus.auth', onboarding: 'campus.onboarding' },
  fullDate: { dateStyle: 'medium', timeStyle: 'short' },
  firstPage: { id: 'campus-first-page', forget: '/api/auth/first-page' },
};

const me = { id: 'u1', name: 'Asha Rao', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const HOUR = 3600_000;

/** The feed's first page as the server sends it: every kind of card the painter draws. */
const posts = [
  {
    id: 'p1',
    content: 'Hello campus </script><img src=x onerror=alert(1)>',
    images: [{ url: '/media/a.jpg', width: 800, height: 600, alt: '', variants: [] }],
    likesCount: 1,
    isLiked: true,
    commentsCount: 1,
    author: me,
    user: me,
    createdAt: ago(3 * HOUR),
    updatedAt: ago(3 * HOUR),
    group: null,
  },
  {
    id: 'p2',
    content: 'Lab notes\nsecond line',
    images: [
      { url: '/media/b.jpg', width: 400, height: 300 },
      { url: '/media/c.jpg', width: 300, height: 400 },
    ],
    likesCount: 0,
    isLiked: false,
    commentsCount: 2,
    author: { id: 'u2', name: 'Ravi Kumar Sen', role: 'faculty', universityId: '', avatar: { url: '/media/ravi.jpg', thumbUrl: '/media/ravi-96.jpg' } },
    createdAt: ago(2 * 24 * HOUR),
    updatedAt: ago(24 * HOUR),
    group: { id: 'g1', handle: 'chess-club', name: 'Chess Club', visibility: 'public' },
  },
  {
    id: 'p3',
    content: 'x'.repeat(590) + ' and a long tail that goes past the clamp',
    images: [],
    likesCount: 5,
    isLiked: false,
    commentsCount: 0,
    author: { id: 'u3', name: 'mononym', role: 'student', universityId: '', avatar: { url: '' } },
    createdAt: ago(20_000),
    group: null,
  },
  {
    // A repost entry with a comment: "Ravi reposted", the original inside.
    id: 'p4',
    content: 'Worth a read',
    images: [],
    likesCount: 0,
    commentsCount: 0,
    author: { id: 'u2', name: 'Ravi Kumar Sen', role: 'faculty', universityId: '', avatar: { url: '' } },
    createdAt: ago(30 * 60_000),
    group: null,
    repostOf: {
      id: 'p5',
      content: 'The library opens at 8 tomorrow',
      images: [{ url: '/media/d.jpg', width: 1200, height: 800 }],
      likesCount: 3,
      isLiked: false,
      commentsCount: 1,
      repostsCount: 1,
      saved: true,
      author: { id: 'u3', name: 'mononym', role: 'student', universityId: '', avatar: { url: '' } },
      createdAt: ago(5 * HOUR),
      group: null,
    },
  },
];

/** Puts the document's data block in the head, as the server writes it. */
function documentWithPage(user: string, nextCursor: string | null) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = 'campus-first-page';
  block.setAttribute('data-user', user);
  block.textContent = JSON.stringify({ status: 'success', data: { posts, nextCursor } });
  document.head.append(block);
  const root = document.createElement('div');
  root.id = 'root';
  document.body.append(root);
  return root;
}

/**
 * An element as the layout sees it: tag, classes, the attributes and
 * inline sizes that matter, and its children; text merged. Pictures the
 * painter leaves out (avatar photos) are skipped; an image's box is its
 * aspect ratio, however drawn; the carousel is its height.
 */
function outline(node: Node): unknown[] {
  const out: unknown[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push(text);
    text = '';
  };
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      text += child.textContent ?? '';
      continue;
    }
    if (!(child instanceof Element)) continue;
    flush();
    const tag = child.tagName.toLowerCase();
    const cls = (child.getAttribute('class') ?? '').split(/\s+/).filter(Boolean).sort().join('.');
    if (cls === 'post-card__image') {
      const ratio =
        tag === 'img'
          ? `${child.getAttribute('width')} / ${child.getAttribute('height')}`
          : (child as HTMLElement).style.aspectRatio;
      out.push(`image box ${ratio}`);
      continue;
    }
    if (tag === 'img') continue;
    if (cls === 'carousel') {
      // Its box: the app's has the slides and controls inside.
      out.push(['div.carousel', (child.getAttribute('style') ?? '').replace(/\s/g, '')]);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of ['id', 'type', 'role', 'href', 'datetime', 'aria-label', 'aria-labelledby', 'aria-hidden', 'data-post-id', 'data-initials', 'data-testid', 'width', 'height', 'fill']) {
      const v = child.getAttribute(a);
      if (v !== null) attrs[a] = v;
    }
    const style = (child as HTMLElement).style;
    for (const p of ['width', 'height', 'fontSize'] as const) if (style?.[p]) attrs[`style.${p}`] = style[p];
    const entry: unknown[] = [`${tag}.${cls}`, attrs];
    if (tag === 'svg') entry.push(child.innerHTML.replace(/\s*\/>/g, '></path>'));
    else entry.push(outline(child));
    out.push(entry);
  }
  flush();
  return out;
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: me }));
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  delete (document.documentElement as { scrollHeight?: number }).scrollHeight;
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  (window as { __campusBoot?: BootHandoff }).__campusBoot = undefined;
});

describe('the painted first page', () => {
  it.each([
    ['a next page', 'cursor-1'],
    ['no next page', null],
  ])("is the app's feed, element for element, from the document's data with no request for it (%s)", async (_, cursor) => {
    // A page taller than the screen, as the cards make it where there is
    // layout: no next page is asked for by the scroll.
    Object.defineProperty(document.documentElement, 'scrollHeight', { value: 10_000, configurable: true });
    const firstPageCalls = vi.fn();
    installFakeFetch({
      '/api/posts/feed': (_, url) => {
        if (!url.searchParams.has('cursor')) {
          firstPageCalls(url.href);
          return json({ status: 'error', message: 'the first page was asked for' }, 500);
        }
        return new Promise<Response>(() => {}); // a next page: still on its way
      },
      '/api/friends/suggestions': () => json({ status: 'success', data: [] }),
    });
    const root = documentWithPage('u1', cursor);
    boot(window as unknown as BootWindow, bootPlan);
    paint(window as unknown as PaintWindow, plan);
    const painted = root.querySelector('[data-first-paint]');
    expect(painted).not.toBeNull();
    expect(painted?.hasAttribute('inert')).toBe(true);
    expect(bootHandoff().painted).toBe(true);

    // The app, as main.tsx starts it: the early answer is the data block's.
    adoptBootFetches();
    const store = createStore();
    const app = document.createElement('div');
    document.body.append(app);
    render(
      <Provider store={store}>
        <FeedPage />
      </Provider>,
      { container: app },
    );
    await waitFor(() => expect(app.querySelectorAll('article.post-card:not(.post-card--embedded)')).toHaveLength(posts.length));
    await act(async () => {});

    const paintedCenter = painted!.querySelector('.feed-layout__center')!;
    const appCenter = app.querySelector('.feed-layout__center')!;
    expect(outline(paintedCenter)).toEqual(outline(appCenter));
    expect(firstPageCalls).not.toHaveBeenCalled();
    // Text is text: nothing in a post became markup.
    expect(painted!.querySelector('.post-card__content img, .post-card__content script')).toBeNull();
    expect(painted!.querySelector('[data-post-id="p1"] .post-card__content p')?.textContent).toBe(posts[0]!.content);
  });

  it('paints the shell around it: the top bar, the theme chosen, the composer with my name', () => {
    localStorage.setItem('campus.theme', 'dark');
    const root = documentWithPage('u1', null);
    boot(window as unknown as BootWindow, bootPlan);
    paint(window as unknown as PaintWindow, plan);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(root.querySelector('.top-bar .top-bar__name')?.textContent).toBe('Campus');
    expect(root.querySelector('.top-bar__search-input')?.getAttribute('placeholder')).toBe('Search Campus...');
    expect(root.querySelector('.composer__prompt')?.textContent).toBe("What's on your mind, Asha?");
  });

  it.each([
    ["another user's page", 'u2'],
    ['no page', null],
  ])('paints nothing with %s', (_, user) => {
    installFakeFetch({ '/api/posts/feed': () => json({ status: 'success', data: { posts: [], nextCursor: null } }) });
    const root = user ? documentWithPage(user, null) : Object.assign(document.body.appendChild(document.createElement('div')), { id: 'root' });
    boot(window as unknown as BootWindow, bootPlan);
    paint(window as unknown as PaintWindow, plan);
    expect(root.childNodes).toHaveLength(0);
    expect(bootHandoff().painted).toBeUndefined();
  });
});
