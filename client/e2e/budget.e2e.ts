// Issue 16, the client's performance budget: the JavaScript the first
// screen loads — the login page signed out, the feed signed in — must be
// ≤ 100 KB compressed (asserted). Issue 27, a first post at the network's
// floor: the feed's first post on a fresh load (new context: no HTTP cache,
// no service worker) with Chrome DevTools' "Slow 4G" profile and a 4×
// slower CPU, measured two ways, and how the app takes over from the
// painted first page:
//
// - the budget's own method: Chromium with V8's lazy source positions off
//   (a cost of DevTools being attached that no user's browser pays), the
//   time taken in the page when the first post card enters the DOM (a
//   MutationObserver), waited on from the document's commit; beside it, the
//   page's first contentful paint;
// - a plain Chromium without any flags, with Playwright's own waits (the
//   locator waits for a visible post card), the time read in the page once
//   Playwright has seen it.
//
// Both are printed with the request waterfall, beside issue 27's target
// (FIRST_POST_TARGET_MS); a time is a figure, not an assertion, on a busy
// machine. What is asserted is the behaviour that makes it: the first card
// seen is the one the document painted, before the app's code ran.
//
// The hand-over: the painted cards (api/paint.ts) and the app's must stand
// at the same place with the same text, and from the first card on some
// card is always in the DOM (no fallback in between).

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { launch, NARROW, newPage, type PageProblems } from './support/browser';
import { png, postWithImages } from './support/images';
import { createStudent, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const BUDGET_JS_BYTES = 100 * 1024;

// Chrome DevTools' "Slow 4G" preset (the throttling menu's values).
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.4 * 1024 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

/** Issue 27's target for the first post on that profile. */
const FIRST_POST_TARGET_MS = 1500;

/** Fresh loads per method: the median is the figure. */
const RUNS = 3;

const n = (Date.now() % 900_000) + 100_000;
const user = { name: 'Bela Budget', email: `bela.${n}@uni.test`, universityId: `BWU/BCA/24/${n}`, password: 'Bela#2025ok', batch: '2024' };
const postText = `Budget post ${n}: the first thing a student sees, with a photo below it.`;

interface Loaded {
  jsBytes: number;
  jsFiles: string[];
  /** performance.now() when the awaited element was there. */
  readyMs: number;
  /** The page's first contentful paint (ms), or 0. */
  fcpMs: number;
  /** Every request: name, start and end (ms from navigation start), bytes on the wire. */
  waterfall: { name: string; start: number; end: number; bytes: number }[];
}

/** A box on screen, rounded to the pixel. */
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The first card, painted and then the app's (what the init script records). */
interface HandOver {
  /** Whether the first card seen was the painter's. */
  painted: boolean;
  postId: string;
  paintedCard?: Box;
  paintedText?: string;
  paintedMedia?: Box;
  appCard?: Box;
  appText?: string;
  appMedia?: Box;
  /** When the app's first card replaced the painted one (ms since navigation). */
  appAtMs?: number;
  /** Mutation batches after the first card in which no card was in the DOM. */
  gaps: number;
  /** Whether the app's loading fallback showed after the first card. */
  fallback: boolean;
}

/**
 * Loads path in page and waits for selector, then reads what the page
 * loaded. The time is taken in the page, when the element enters the DOM
 * (a MutationObserver from an init script), not when the test notices it.
 * The test waits on that observer's promise with one call, and from the
 * document's commit: Playwright's own waits (goto until "load", then a
 * locator polled by its injected script) ran on the page's main thread in
 * the middle of the measured load, ~30 ms of CPU ×4 that no user's browser
 * spends. The same script records the hand-over from the painted cards to
 * the app's (window.__handOver).
 */
async function load(page: Page, path: string, selector: string): Promise<Loaded> {
  await page.addInitScript((sel) => {
    const w = window as unknown as { __readyMs?: number; __ready?: Promise<number>; __fcp?: number; __handOver?: HandOver };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    const box = (el: Element | null | undefined) => {
      if (!el) return undefined;
      const r = el.getBoundingClientRect();
      return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) };
    };
    // Where the first card stands, as painted or as the app's: read at
    // once (a layout now), so that nothing can come in between.
    const record = (which: 'painted' | 'app', id: string) => {
      const h = w.__handOver!;
      const card = document.querySelector(`article.post-card[data-post-id="${CSS.escape(id)}"]`);
      if (!card || (which === 'painted') !== !!card.closest('[data-first-paint]')) return;
      const at = { card: box(card), text: card.querySelector('.post-card__content')?.textContent ?? '', media: box(card.querySelector('.post-card__media')) };
      if (which === 'painted') {
        h.paintedCard = at.card;
        h.paintedText = at.text;
        h.paintedMedia = at.media;
      } else {
        h.appAtMs = performance.now();
        h.appCard = at.card;
        h.appText = at.text;
        h.appMedia = at.media;
      }
    };
    w.__ready = new Promise((resolve) => {
      new MutationObserver(() => {
        const first = document.querySelector(sel);
        if (w.__readyMs === undefined && first) {
          w.__readyMs = performance.now();
          resolve(w.__readyMs);
          const painted = !!first.closest('[data-first-paint]');
          const postId = first.getAttribute('data-post-id') ?? '';
          w.__handOver = { painted, postId, gaps: 0, fallback: false };
          record(painted ? 'painted' : 'app', postId);
          return;
        }
        const h = w.__handOver;
        if (!h) return;
        if (!document.querySelector(sel)) h.gaps++;
        if (document.querySelector('.app-loading, .page-loading')) h.fallback = true;
        if (h.painted && !h.appCard && !document.querySelector('[data-first-paint]')) record('app', h.postId);
      }).observe(document, { childList: true, subtree: true });
    });
  }, selector);
  await page.goto(path, { waitUntil: 'commit' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const readyMs = await Promise.race([
    page.evaluate(() => (window as unknown as { __ready: Promise<number> }).__ready),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${selector} did not appear on ${path} within 90 s`)), 90_000);
    }),
  ]).finally(() => clearTimeout(timer));
  // A painted page: the first load lasts until the app has taken it over.
  // On a busy machine the load event can come before the app has even asked
  // for its shell (cc28 read 79.9 KB in 5 files, the shell's chunk not yet
  // requested), so wait for the hand-over itself.
  await page.waitForFunction(
    () => {
      const h = (window as unknown as { __handOver?: HandOver }).__handOver;
      return !h?.painted || h.appAtMs !== undefined;
    },
    undefined,
    { timeout: 90_000 },
  );
  // Every request in the waterfall.
  await page.waitForLoadState('load');
  return page.evaluate((readyMs) => readLoaded(readyMs), readyMs);
}

/**
 * Loads path in a plain page with Playwright's own waits: goto, then the
 * locator's wait for a visible selector; the time is read in the page once
 * Playwright has seen it (so it includes Playwright's polling, as a user's
 * eye would not).
 */
async function loadPlain(page: Page, path: string, selector: string): Promise<Loaded> {
  await page.addInitScript(() => {
    const w = window as unknown as { __fcp?: number };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
  });
  await page.goto(path, { waitUntil: 'commit' });
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 90_000 });
  const readyMs = await page.evaluate(() => performance.now());
  await page.waitForLoadState('load');
  return page.evaluate((readyMs) => readLoaded(readyMs), readyMs);
}

/** Declared for the page, where init scripts define it (below, by addInitScript). */
declare function readLoaded(readyMs: number): Loaded;

/** What both loads read back from the page (installed as an init script). */
function installReadLoaded(): void {
  (window as unknown as { readLoaded: (readyMs: number) => Loaded }).readLoaded = (readyMs: number) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    // The first load is what the page asked for until the app showed its
    // first post (the painted page's hand-over, else ready): what the
    // browser fetches when idle after that (the lazy dialogs, the comments)
    // is not, however soon a busy machine gets to it.
    const hand = (window as unknown as { __handOver?: HandOver }).__handOver;
    const until = Math.max(readyMs, hand?.appAtMs ?? 0);
    const scripts = entries.filter((e) => new URL(e.name).pathname.endsWith('.js') && e.startTime <= until);
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const short = (u: string) => new URL(u).pathname.replace(/^\/assets\//, '');
    return {
      jsBytes: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0),
      jsFiles: scripts.map((e) => short(e.name)),
      readyMs,
      fcpMs: (window as unknown as { __fcp?: number }).__fcp ?? 0,
      waterfall: [
        ...(nav ? [{ name: '(document)', start: 0, end: Math.round(nav.responseEnd), bytes: nav.encodedBodySize }] : []),
        ...entries.map((e) => ({ name: short(e.name), start: Math.round(e.startTime), end: Math.round(e.responseEnd), bytes: e.encodedBodySize })),
      ],
    };
  };
}

/**
 * A fresh context (empty cache, no service worker), optionally signed in
 * (through the login API, in the context: its first-page cookie is the
 * browser's, and the token and user are saved as the app saves them — a
 * returning user's first load), throttled or not.
 */
async function fresh(
  browser: Browser,
  signedIn: boolean,
  slow: boolean,
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const { context, page, problems } = await newPage(browser, baseURL);
  if (viewport) await page.setViewportSize(viewport);
  await context.addInitScript(installReadLoaded);
  if (signedIn) {
    const res = await context.request.post('/api/auth/login', { data: { email: user.email, password: user.password, role: 'student' } });
    expect(res.status()).toBe(200);
    const session = ((await res.json()) as { data: Session }).data;
    expect((await context.cookies()).map((c) => c.name)).toContain('campus_fp');
    await context.addInitScript(
      ([t, u]) => {
        localStorage.setItem('campus.token', t);
        localStorage.setItem('campus.auth', u);
      },
      [session.token, JSON.stringify({ isAuthenticated: true, user: session.user })] as const,
    );
  }
  // No service worker in the measured load: it is the first visit.
  await context.route('**/sw.js', (route) => route.abort());
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  return { context, page, problems };
}

function report(label: string, l: Loaded): void {
  console.log(
    `budget: ${label}: JS ${(l.jsBytes / 1024).toFixed(1)} KB compressed in ${l.jsFiles.length} files; ready at ${Math.round(l.readyMs)} ms; first contentful paint ${Math.round(l.fcpMs)} ms`,
  );
  for (const w of l.waterfall) console.log(`budget:   ${String(w.start).padStart(6)} → ${String(w.end).padStart(6)} ms  ${(w.bytes / 1024).toFixed(1).padStart(6)} KB  ${w.name}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (xs: number[]) => xs.map(Math.round).join(', ');

/** Checks the hand-over a load recorded: painted first, then the app's card in the same place. */
async function expectHandOver(page: Page, label: string): Promise<HandOver> {
  // The app takes over after the load: wait for its card to be recorded.
  await page.waitForFunction(() => (window as unknown as { __handOver?: HandOver }).__handOver?.appCard !== undefined, undefined, { timeout: 60_000 });
  const h = await page.evaluate(() => (window as unknown as { __handOver: HandOver }).__handOver);
  console.log(`budget: hand-over (${label}): ${JSON.stringify(h)}`);
  expect(h.painted, 'the first card seen is the painted one').toBe(true);
  expect(h.paintedCard, 'the painted card was laid out').toBeDefined();
  expect(h.appCard).toEqual(h.paintedCard);
  expect(h.appMedia).toEqual(h.paintedMedia);
  expect(h.paintedMedia?.h ?? 0, "the image's box is there before the image").toBeGreaterThan(100);
  expect(h.appText).toBe(h.paintedText);
  expect(h.paintedText).toContain(postText);
  expect(h.gaps, 'a moment with no post card').toBe(0);
  expect(h.fallback, 'a loading fallback after the first card').toBe(false);
  return h;
}

describe('first-load budget', () => {
  let browser: Browser;
  let plain: Browser;

  beforeAll(async () => {
    const session = await createStudent({ baseURL, dataDir }, user);
    for (let i = 0; i < 6; i++) {
      expect((await api(baseURL, 'POST', '/posts', { content: `Earlier budget post ${i} ${n}`, visibility: 'public' }, session.token)).status).toBe(201);
    }
    // The newest: text and a 4:3 photo, whose box must show before the photo.
    const photo = await postWithImages(baseURL, session.token, postText, [{ name: 'lecture.png', data: png(800, 600, [40, 90, 200], [230, 160, 60]) }]);
    expect(photo.status).toBe(201);
    // Playwright drives the page through the DevTools protocol, whose Runtime
    // domain makes V8 record a detailed stack for every Error created, with
    // line numbers: the three React DOM creates at start-up (its Suspense
    // signals) made V8 re-parse the main chunk for them, ~70 ms at CPU ×4 in
    // the middle of the measured load, which a user's browser (no DevTools)
    // never does. With lazy source positions off, V8 keeps the positions from
    // the first compile (streamed, off the main thread) and re-parses nothing.
    browser = await launch(['--js-flags=--no-enable-lazy-source-positions']);
    plain = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await plain?.close();
  });

  it(`the login screen loads ≤ ${BUDGET_JS_BYTES / 1024} KB of compressed JS`, async () => {
    const { context, page } = await fresh(browser, false, false);
    const l = await load(page, '/login', 'form');
    report('login (unthrottled)', l);
    expect(l.jsBytes).toBeGreaterThan(0);
    expect(l.jsBytes).toBeLessThanOrEqual(BUDGET_JS_BYTES);
    await context.close();
  });

  it(`the feed loads ≤ ${BUDGET_JS_BYTES / 1024} KB of compressed JS and hands its painted first page over to the app in place, wide and narrow`, async () => {
    for (const [label, viewport] of [
      ['1280 px', undefined],
      ['360 px', NARROW],
    ] as const) {
      const { context, page, problems } = await fresh(browser, true, false, viewport);
      const l = await load(page, '/', 'article.post-card');
      if (!viewport) {
        report('feed (unthrottled)', l);
        expect(l.jsBytes).toBeGreaterThan(0);
        expect(l.jsBytes).toBeLessThanOrEqual(BUDGET_JS_BYTES);
      }
      await expectHandOver(page, `unthrottled, ${label}`);
      // The document's page is short (what fills a first screen); the next follows by itself.
      await page.locator('.feed__list article.post-card').nth(5).waitFor();
      // The painted document's inline script and style are allowed by their
      // hashes, and nothing threw (the service worker's refusal, which this
      // test causes, is not a problem of the page).
      expect(problems.errors.filter((e) => /Content Security Policy|Refused to|pageerror/i.test(e))).toEqual([]);
      await context.close();
    }
  });

  it(`the feed's first post on Slow 4G with CPU ×${CPU_SLOWDOWN} is the painted one; both methods' figures are reported beside the ${FIRST_POST_TARGET_MS} ms target`, async () => {
    const budget: number[] = [];
    const fcps: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const { context, page } = await fresh(browser, true, true);
      const l = await load(page, '/', 'article.post-card');
      if (run === 1) report(`feed first post, Slow 4G + CPU ×${CPU_SLOWDOWN}`, l);
      budget.push(l.readyMs);
      fcps.push(l.fcpMs);
      await expectHandOver(page, `Slow 4G + CPU ×${CPU_SLOWDOWN}, run ${run}`);
      await context.close();
    }
    const plainTimes: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const { context, page } = await fresh(plain, true, true);
      const l = await loadPlain(page, '/', 'article.post-card');
      if (run === 1) report(`feed first post, plain Chromium, Playwright's waits, Slow 4G + CPU ×${CPU_SLOWDOWN}`, l);
      plainTimes.push(l.readyMs);
      await context.close();
    }
    console.log(`budget: feed first post, Slow 4G + CPU ×${CPU_SLOWDOWN}, budget's method: median ${Math.round(median(budget))} ms of ${ms(budget)} ms (first contentful paint ${ms(fcps)} ms)`);
    console.log(`budget: feed first post, Slow 4G + CPU ×${CPU_SLOWDOWN}, plain Chromium with Playwright's waits: median ${Math.round(median(plainTimes))} ms of ${ms(plainTimes)} ms (target ≤ ${FIRST_POST_TARGET_MS} ms)`);
    {
      const { context, page } = await fresh(browser, false, true);
      const l = await load(page, '/login', 'form');
      report(`login, Slow 4G + CPU ×${CPU_SLOWDOWN}`, l);
      await context.close();
    }
  });
});
