// Live counts on the feed (issue 13, docs/protocol.md §2.5): in one browser B likes a
// post, and in another A sees its count move on the feed; once A scrolls the
// post out of view, the socket unwatches it and its counts stop coming while
// the posts in view keep theirs. Asserted on the websocket frames A's page
// sent and received (one `post:counts` frame per tick with the changed
// watched posts).

import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { launch, newPage, type PageProblems } from './support/browser';
import { createStudent, loginUI } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const userA = { name: 'Tara Sen', email: `tara.${n}@uni.test`, universityId: `BWU/BCA/22/${n}`, password: 'Tara#2025x' };
const userB = { name: 'Ishan Roy', email: `ishan.${n}@uni.test`, universityId: `BWU/BCA/22/${n + 1}`, password: 'Ishan#2025' };

type Session = { page: Page; problems: PageProblems };
type Frame = { event: string; data: Record<string, unknown> };
type Entry = { postId: string; likesCount: number; commentsCount: number };

/** Every frame a page's websockets sent and received, in order. */
class FrameLog {
  sent: Frame[] = [];
  received: Frame[] = [];
  /** The URL of every websocket the page opened. */
  urls: string[] = [];

  constructor(page: Page) {
    page.on('websocket', (ws: WebSocket) => {
      this.urls.push(ws.url());
      ws.on('framesent', (f) => this.push(this.sent, f.payload));
      ws.on('framereceived', (f) => this.push(this.received, f.payload));
    });
  }

  private push(into: Frame[], payload: string | Buffer) {
    try {
      into.push(JSON.parse(payload.toString()) as Frame);
    } catch {
      // not JSON: not ours
    }
  }

  /** Whether a sent watch or unwatch frame named the post. */
  sentFor(event: 'watch' | 'unwatch', postId: string): boolean {
    return this.sent.some((f) => f.event === event && (f.data.postIds as string[] | undefined)?.includes(postId));
  }

  /** The post:counts entries received from frame index `from` on. */
  counts(from = 0): Entry[] {
    return this.received.slice(from).flatMap((f) => (f.event === 'post:counts' ? (f.data.posts as Entry[]) : []));
  }
}

async function until(what: string, ok: () => boolean, timeout = 15_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function card(page: Page, postId: string) {
  return page.locator(`article[data-post-id="${postId}"]`);
}

async function waitLikes(page: Page, postId: string, expected: string): Promise<void> {
  await page.waitForFunction(
    ([id, want]) => document.querySelector(`article[data-post-id="${id}"] [data-testid="likes-count"]`)?.textContent === want,
    [postId, expected] as const,
    { timeout: 15_000 },
  );
}

describe('live counts on the feed', () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let framesA: FrameLog;
  let tokenA = '';
  let target = ''; // the newest post: on top of A's feed
  let marker = ''; // far below it

  beforeAll(async () => {
    browser = await launch();
    [a, b] = await Promise.all([newPage(browser, baseURL), newPage(browser, baseURL)]);
    framesA = new FrameLog(a.page);
    const { token: tokA } = await createStudent({ baseURL, dataDir }, userA);
    tokenA = tokA;
    await createStudent({ baseURL, dataDir }, userB);
    // Twelve posts by A, oldest first: the last is the target, on top of the
    // feed; the marker is the ninth from the top, on the feed's first page
    // (10 posts) but far below the viewport.
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await api<{ post: { id: string } }>(
        baseURL,
        'POST',
        '/posts',
        { content: i === 11 ? 'Live target: like me' : `Live filler ${i}\n\n${'A line so the card has some height.\n'.repeat(8)}`, visibility: 'public' },
        tokA,
      );
      expect(res.status).toBe(201);
      ids.push(res.data.post.id);
    }
    marker = ids[3]!;
    target = ids[11]!;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('B likes a post in one browser and A sees the count move on the feed', async () => {
    await loginUI(a.page, userA);
    await card(a.page, target).waitFor();
    expect(await card(a.page, target).getByTestId('likes-count').textContent()).toBe('0');
    await until('A watches the target', () => framesA.sentFor('watch', target));
    expect(framesA.sentFor('watch', marker)).toBe(false); // far below the viewport
    // Issue 27 item 11: the token is never in the socket's URL (proxies log
    // URLs); the socket's first frame carries it.
    expect(framesA.urls.length).toBeGreaterThan(0);
    for (const url of framesA.urls) expect(new URL(url).search).toBe('');
    expect(framesA.sent[0]?.event).toBe('auth');
    const sessionToken = await a.page.evaluate(() => localStorage.getItem('campus.token'));
    expect(sessionToken).toBeTruthy();
    expect(framesA.sent[0]?.data).toEqual({ token: sessionToken });
    expect(framesA.urls.some((u) => u.includes(sessionToken!) || u.includes(tokenA))).toBe(false);

    await loginUI(b.page, userB);
    await b.page.goto(`/post/${target}`);
    await card(b.page, target).getByRole('button', { name: 'Like', exact: true }).click();
    await waitLikes(b.page, target, '1');

    await waitLikes(a.page, target, '1');
    const entry = framesA.counts().find((e) => e.postId === target);
    // The post's first commit: its counts version is 1 (README, "Live counts arrive in order").
    expect(entry).toEqual({ postId: target, likesCount: 1, commentsCount: 0, repostsCount: 0, countsVersion: 1 });
    expect(framesA.received.some((f) => f.event === 'post:likes' || f.event === 'post:comments')).toBe(false);
  });

  it('A scrolls the post out of view: its counts stop, those of the posts in view go on', async () => {
    await card(a.page, marker).scrollIntoViewIfNeeded();
    await until('A unwatches the target', () => framesA.sentFor('unwatch', target));
    await until('A watches the marker', () => framesA.sentFor('watch', marker));
    // Loopback delivers the unwatch long before B's clicks below reach the server.
    const from = framesA.received.length;

    // B unlikes the target, then likes the marker.
    await card(b.page, target).getByRole('button', { name: 'Liked' }).click();
    await waitLikes(b.page, target, '0');
    await b.page.goto(`/post/${marker}`);
    await card(b.page, marker).getByRole('button', { name: 'Like', exact: true }).click();
    await waitLikes(b.page, marker, '1');

    await waitLikes(a.page, marker, '1');
    const after = framesA.counts(from);
    expect(after.some((e) => e.postId === marker && e.likesCount === 1)).toBe(true);
    expect(after.filter((e) => e.postId === target)).toEqual([]);
    // The card, still on the page, kept its last live count.
    expect(await card(a.page, target).getByTestId('likes-count').textContent()).toBe('1');
    expect(a.problems.errors).toEqual([]);
    expect(b.problems.errors).toEqual([]);
  });
});
