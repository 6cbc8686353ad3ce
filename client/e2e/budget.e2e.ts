// Issue 16, the client's performance budget: the JavaScript the first
// screen loads — the login page signed out, the feed signed in — must be
// ≤ 100 KB compressed (asserted), and the feed's first post is measured on a
// fresh load (new context: no HTTP cache, no service worker) with Chrome
// DevTools' "Slow 4G" profile and a 4× slower CPU. The time is printed with
// the request waterfall, not asserted: speed is the bench's job, and the
// machine is shared.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { launch, newPage } from './support/browser';
import { createStudent } from './support/users';

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

const n = (Date.now() % 900_000) + 100_000;
const user = { name: 'Bela Budget', email: `bela.${n}@uni.test`, universityId: `BWU/BCA/24/${n}`, password: 'Bela#2025ok', batch: '2024' };

interface Loaded {
  jsBytes: number;
  jsFiles: string[];
  /** performance.now() when the awaited element was there. */
  readyMs: number;
  /** Every request: name, start and end (ms from navigation start), bytes on the wire. */
  waterfall: { name: string; start: number; end: number; bytes: number }[];
}

/**
 * Loads path in page and waits for selector, then reads what the page
 * loaded. The time is taken in the page, when the element enters the DOM
 * (a MutationObserver from an init script), not when the test notices it.
 * The test waits on that observer's promise with one call, and from the
 * document's commit: Playwright's own waits (goto until "load", then a
 * locator polled by its injected script) ran on the page's main thread in
 * the middle of the measured load, ~30 ms of CPU ×4 that no user's browser
 * spends.
 */
async function load(page: Page, path: string, selector: string): Promise<Loaded> {
  await page.addInitScript((sel) => {
    const w = window as unknown as { __readyMs?: number; __ready?: Promise<number> };
    w.__ready = new Promise((resolve) => {
      new MutationObserver((_, obs) => {
        if (w.__readyMs === undefined && document.querySelector(sel)) {
          w.__readyMs = performance.now();
          obs.disconnect();
          resolve(w.__readyMs);
        }
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
  // Every request in the waterfall.
  await page.waitForLoadState('load');
  return page.evaluate((readyMs) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const scripts = entries.filter((e) => new URL(e.name).pathname.endsWith('.js'));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const short = (u: string) => new URL(u).pathname.replace(/^\/assets\//, '');
    return {
      jsBytes: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0),
      jsFiles: scripts.map((e) => short(e.name)),
      readyMs,
      waterfall: [
        ...(nav ? [{ name: '(document)', start: 0, end: Math.round(nav.responseEnd), bytes: nav.encodedBodySize }] : []),
        ...entries.map((e) => ({ name: short(e.name), start: Math.round(e.startTime), end: Math.round(e.responseEnd), bytes: e.encodedBodySize })),
      ],
    };
  }, readyMs);
}

/** A fresh context (empty cache, no service worker), optionally signed in, throttled or not. */
async function fresh(browser: Browser, session: { token: string; user: unknown } | null, slow: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser, baseURL);
  if (session) {
    // Signed in as the app saves it (authAtoms): a returning user's first load.
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
  return { context, page };
}

function report(label: string, l: Loaded): void {
  console.log(`budget: ${label}: JS ${(l.jsBytes / 1024).toFixed(1)} KB compressed in ${l.jsFiles.length} files; ready at ${Math.round(l.readyMs)} ms`);
  for (const w of l.waterfall) console.log(`budget:   ${String(w.start).padStart(6)} → ${String(w.end).padStart(6)} ms  ${(w.bytes / 1024).toFixed(1).padStart(6)} KB  ${w.name}`);
}

describe('first-load budget', () => {
  let browser: Browser;
  let session: { token: string; user: unknown };

  beforeAll(async () => {
    session = await createStudent({ baseURL, dataDir }, user);
    expect((await api(baseURL, 'POST', '/posts', { content: `Budget post ${n}`, visibility: 'public' }, session.token)).status).toBe(201);
    // Playwright drives the page through the DevTools protocol, whose Runtime
    // domain makes V8 record a detailed stack for every Error created, with
    // line numbers: the three React DOM creates at start-up (its Suspense
    // signals) made V8 re-parse the main chunk for them, ~70 ms at CPU ×4 in
    // the middle of the measured load, which a user's browser (no DevTools)
    // never does. With lazy source positions off, V8 keeps the positions from
    // the first compile (streamed, off the main thread) and re-parses nothing.
    browser = await launch(['--js-flags=--no-enable-lazy-source-positions']);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(`the login screen loads ≤ ${BUDGET_JS_BYTES / 1024} KB of compressed JS`, async () => {
    const { context, page } = await fresh(browser, null, false);
    const l = await load(page, '/login', 'form');
    report('login (unthrottled)', l);
    expect(l.jsBytes).toBeGreaterThan(0);
    expect(l.jsBytes).toBeLessThanOrEqual(BUDGET_JS_BYTES);
    await context.close();
  });

  it(`the feed loads ≤ ${BUDGET_JS_BYTES / 1024} KB of compressed JS; its first post on Slow 4G with CPU ×${CPU_SLOWDOWN} is reported`, async () => {
    {
      const { context, page } = await fresh(browser, session, false);
      const l = await load(page, '/', 'article.post-card');
      report('feed (unthrottled)', l);
      expect(l.jsBytes).toBeGreaterThan(0);
      expect(l.jsBytes).toBeLessThanOrEqual(BUDGET_JS_BYTES);
      await context.close();
    }
    // Three fresh loads (the machine is shared: one can be unlucky); the median is the figure.
    const times: number[] = [];
    for (let run = 1; run <= 3; run++) {
      const { context, page } = await fresh(browser, session, true);
      const l = await load(page, '/', 'article.post-card');
      if (run === 1) report(`feed first post, Slow 4G + CPU ×${CPU_SLOWDOWN}`, l);
      times.push(l.readyMs);
      await context.close();
    }
    times.sort((a, b) => a - b);
    console.log(`budget: feed first post, Slow 4G + CPU ×${CPU_SLOWDOWN}: median ${Math.round(times[1]!)} ms of ${times.map(Math.round).join(', ')} ms`);
    {
      const { context, page } = await fresh(browser, null, true);
      const l = await load(page, '/login', 'form');
      report(`login, Slow 4G + CPU ×${CPU_SLOWDOWN}`, l);
      await context.close();
    }
  });
});
