// A page whose chunk does not load (ui/ChunkBoundary): the Friends page's
// files are refused as after a deploy that replaced them (404). The alert
// shows in the page area with docs/product.md §8.1's message while the bars still work;
// going to the feed and back tries again; the second failed "Try again"
// while online reloads the page once (the reload rule); once the files are
// served, "Try again" shows the page with its stylesheet. Then offline: the
// Groups page's chunk fails with the offline message and loads by itself
// when the connection is back.

import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, newPage, type PageProblems } from './support/browser';
import { loginUI, signUp } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const user = { name: 'Chandra Kale', email: `chandra.chunks.${n}@uni.test`, universityId: `BWU/BCA/23/${n}`, password: 'Chandra#2025' };

const MSG_NETWORK = 'Network error. Please check your connection or try again later.';
const MSG_OFFLINE = 'You are offline. Please check your internet connection and try again.';

const FRIENDS_FILES = '**/assets/FriendsPage-*';

describe('a chunk that does not load (ChunkBoundary)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    browser = await launch();
    ({ context, page, problems } = await newPage(browser, baseURL));
    // No service worker: page.route sees only what the page itself fetches.
    await context.route('**/sw.js', (route) => route.abort());
    await signUp({ baseURL, dataDir }, user);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the alert in the page area, keeps the nav, and Try again loads the page once its files are back', async () => {
    await loginUI(page, user);
    const refused: string[] = [];
    const refuse = (route: Route) => {
      refused.push(new URL(route.request().url()).pathname);
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
    };
    await page.route(FRIENDS_FILES, refuse);

    const nav = page.getByRole('navigation', { name: 'Main' });
    const alert = page.locator('main#main').getByRole('alert');
    await nav.getByRole('button', { name: 'Friends' }).click();
    await alert.getByText(MSG_NETWORK).waitFor();
    expect(page.url()).toBe(`${baseURL}/friends`);
    expect(refused.some((p) => p.endsWith('.js'))).toBe(true);

    // The rest of the app works: Home shows the feed (the alert goes with the route)...
    await nav.getByRole('button', { name: 'Home' }).click();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    expect(await alert.count()).toBe(0);
    // ...and Friends again asks for its files again.
    const before = refused.length;
    await nav.getByRole('button', { name: 'Friends' }).click();
    await alert.getByText(MSG_NETWORK).waitFor();
    expect(refused.length).toBeGreaterThan(before);

    // The reload rule: a failed Try again leaves the alert; the second one, online, reloads the page.
    const tryAgain = alert.getByRole('button', { name: 'Try again' });
    let asked = refused.length;
    await tryAgain.click();
    await expect.poll(() => refused.length).toBeGreaterThan(asked);
    await alert.getByText(MSG_NETWORK).waitFor();
    asked = refused.length;
    const reloaded = page.waitForEvent('load');
    await tryAgain.click();
    await reloaded;
    // The reloaded app opens on /friends, whose files are still refused.
    await alert.getByText(MSG_NETWORK).waitFor();
    expect(page.url()).toBe(`${baseURL}/friends`);
    await nav.getByRole('button', { name: 'Home' }).waitFor();

    // The files are back: Try again shows the page, styled (its stylesheet failed with it and is asked for again).
    await page.unroute(FRIENDS_FILES, refuse);
    await tryAgain.click();
    await page.getByRole('heading', { level: 1, name: 'Friends' }).waitFor();
    expect(await alert.count()).toBe(0);
    // (A refused stylesheet has an empty sheet: its rules tell it loaded.)
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].some(
        (l) => l.href.includes('/assets/FriendsPage-') && (l.sheet?.cssRules.length ?? 0) > 0,
      ),
      undefined,
      { timeout: 15_000 },
    );
    expect(problems.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });

  it('offline, says so; back online, the page loads without a click', async () => {
    await page.goto('/feed');
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await context.setOffline(true);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const alert = page.locator('main#main').getByRole('alert');
    await nav.getByRole('button', { name: 'Groups' }).click();
    await alert.getByText(MSG_OFFLINE).waitFor();
    await context.setOffline(false);
    await page.getByRole('heading', { level: 1, name: 'Groups' }).waitFor();
    expect(await alert.count()).toBe(0);
    expect(problems.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });
});
