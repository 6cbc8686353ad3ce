// Debian's Chromium driven by playwright-core (never a downloaded browser),
// plus the screenshot helper: every screen at desktop and mobile, light and dark.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CLIENT_DIR } from './server';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
/** The narrowest phone the issues test at (issue 27): 360 px wide. */
export const NARROW = { width: 360, height: 780 };
export const SCREENSHOT_DIR = join(CLIENT_DIR, 'e2e', 'screenshots');

/** Debian's Chromium, headless; extraArgs add to CHROMIUM_ARGS. */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export interface PageProblems {
  errors: string[];
}

/**
 * A fresh context (its own storage: a separate signed-in user) and a page
 * that records console errors and CSP violations, which fail the tests.
 */
export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  const problems: PageProblems = { errors: [] };
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of (4\d\d)/.test(text)) {
      problems.errors.push(text);
    }
    if (/Content Security Policy|Refused to/i.test(text)) problems.errors.push(text);
  });
  page.on('pageerror', (err) => problems.errors.push(`pageerror: ${err.message}`));
  return { context, page, problems };
}

/**
 * Screenshots the current screen four times: desktop 1280×800 and mobile
 * (390×844 unless told, e.g. NARROW), each light and dark (the app's theme is
 * 'auto', so it follows the emulated colour scheme). The viewport and scheme
 * are restored afterwards.
 */
export async function shootAll(page: Page, name: string, mobile: { width: number; height: number } = MOBILE): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['mobile', mobile],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150); // let transitions settle
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}--${label}-${scheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light' });
}
