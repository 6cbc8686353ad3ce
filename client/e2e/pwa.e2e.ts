// Issue 16, installable with push: the manifest and icons; the service
// worker's shell opens offline with the offline banner and the feed comes
// back by itself when the network does; the worker never caches /api; the
// Settings toggle "Push notifications" in a browser that has no push
// service (Debian's headless Chromium): permission granted through the
// context, worker registered, the toggle stays off with the reason shown.
// The server side of push (a real push endpoint, RFC 8291 decryption) is
// httpapi/push_test.go. Screenshots: offline, push-settings.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings } from './support/axe';
import { launch, newPage, shootAll, type PageProblems } from './support/browser';
import { createStudent, loginUI } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const user = { name: 'Pia Worker', email: `pia.${n}@uni.test`, universityId: `BWU/BCA/23/${n}`, password: 'Pia#2025ok', batch: '2023' };

/**
 * Waits until the service worker is active and controls the page. Installing
 * it fetches the whole precache: beside a two-core busy loop that took over
 * 30 s once (a fresh clone's make test), so the wait allows 90 s; it is a
 * bound on a state, not a measure.
 */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', undefined, { timeout: 90_000 });
}

/** Errors that going offline causes on purpose (failed requests and their logs). */
function offlineNoise(text: string): boolean {
  return /ERR_INTERNET_DISCONNECTED|Failed to fetch|Network error|You are offline|load failed|WebSocket|net::ERR/i.test(text);
}

describe('installable app and offline shell', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  const postText = `Offline-ready post ${n}`;

  beforeAll(async () => {
    const { token } = await createStudent({ baseURL, dataDir }, user);
    expect((await api(baseURL, 'POST', '/posts', { content: postText, visibility: 'public' }, token)).status).toBe(201);
    browser = await launch();
    ({ context, page, problems } = await newPage(browser, baseURL));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('serves a manifest with installable icons, linked from the page', async () => {
    const res = await fetch(baseURL + '/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/manifest+json');
    const manifest = (await res.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; purpose?: string; type: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Campus', start_url: '/', display: 'standalone' });
    for (const want of [
      { sizes: '192x192', purpose: 'any' },
      { sizes: '512x512', purpose: 'any' },
      { sizes: '512x512', purpose: 'maskable' },
    ]) {
      const icon = manifest.icons.find((i) => i.sizes === want.sizes && i.purpose === want.purpose);
      expect(icon, `icon ${want.sizes} ${want.purpose}`).toBeDefined();
      const img = await fetch(baseURL + icon!.src);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/png');
      // The PNG's own header says its size.
      const bytes = new Uint8Array(await img.arrayBuffer());
      const view = new DataView(bytes.buffer);
      expect(`${view.getUint32(16)}x${view.getUint32(20)}`).toBe(want.sizes);
    }
    const sw = await fetch(baseURL + '/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');

    await page.goto('/login');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
  });

  it('opens offline from the service worker with the offline banner, and retries when back online', async () => {
    await loginUI(page, user);
    await page.locator('article.post-card', { hasText: postText }).waitFor();
    await controlled(page);

    // Offline: a reload still opens the app (the shell from the worker's cache).
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    const banner = page.locator('.connectivity');
    expect(await banner.getAttribute('role')).toBe('status');
    expect(await banner.getAttribute('aria-live')).toBe('polite');
    await banner.getByText('You’re offline.').waitFor();
    // Issue 27: the feed last read, marked as such, not "Couldn't load posts".
    await page.locator('article.post-card', { hasText: postText }).waitFor();
    await page.getByTestId('offline-notice').waitFor();
    expect(await page.getByText("Couldn't load posts").count()).toBe(0);
    await shootAll(page, 'offline');
    const offlineFindings = await axeAllVariants(page, 'offline');
    expect(offlineFindings, describeFindings(offlineFindings)).toEqual([]);

    // Back online: the banner says so and the feed loads without a click.
    await context.setOffline(false);
    await banner.getByText('Back online.').waitFor();
    await page.locator('article.post-card', { hasText: postText }).waitFor({ timeout: 30_000 });
    await page.getByTestId('offline-notice').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await banner.getByText('You’re offline.').count()).toBe(0);

    // Nothing of the API is ever in the worker's caches: only the shell.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.some((u) => u.startsWith('/assets/') && u.endsWith('.js'))).toBe(true);
    expect(cached.filter((u) => u.startsWith('/api/') || u.startsWith('/media/'))).toEqual([]);
    expect(problems.errors.filter((e) => !offlineNoise(e))).toEqual([]);
  });
});

describe('push notifications toggle', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Signs in and opens Settings → Notifications; answers the switch. */
  async function openToggle(page: Page) {
    await loginUI(page, user);
    await controlled(page);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const toggle = page.getByRole('switch', { name: /Push notifications/ });
    await toggle.waitFor();
    return toggle;
  }

  it('with permission granted: subscribes through the worker, or says why the browser cannot', async () => {
    const { context, page, problems } = await newPage(browser, baseURL);
    await context.grantPermissions(['notifications'], { origin: baseURL });
    const toggle = await openToggle(page);
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);

    const posted = page.waitForRequest((r) => r.url().endsWith('/api/push/subscriptions') && r.method() === 'POST', { timeout: 20_000 }).catch(() => null);
    await toggle.click();
    const outcome = page.getByRole('alert').or(page.getByText('Push notifications are on for this device.'));
    await outcome.first().waitFor({ timeout: 20_000 });
    const permission = await page.evaluate(() => Notification.permission);
    expect(permission).toBe('granted');
    const hasSub = await page.evaluate(async () => !!(await (await navigator.serviceWorker.ready).pushManager.getSubscription()));
    if (hasSub) {
      // A browser with a push service: the subscription went to the server.
      expect(await posted).not.toBeNull();
      expect(await toggle.isChecked()).toBe(true);
      await toggle.click();
      await page.getByText('Push notifications are off on this device.').waitFor();
      expect(await toggle.isChecked()).toBe(false);
    } else {
      // Headless Chromium has none: the switch stays off and says so.
      await page.getByRole('alert').filter({ hasText: 'this browser has no push service available' }).waitFor();
      expect(await toggle.isChecked()).toBe(false);
      expect(await toggle.isEnabled()).toBe(true);
    }
    await shootAll(page, 'push-settings');
    const findings = await axeAllVariants(page, 'push-settings');
    expect(findings, describeFindings(findings)).toEqual([]);
    // Chromium logs why its (incognito) contexts cannot subscribe; nothing else.
    expect(problems.errors.filter((e) => !/does not support the Push API in incognito/.test(e))).toEqual([]);
    await context.close();
  });

  it('with notifications blocked: the switch is disabled and says how to allow them', async () => {
    const { context, page, problems } = await newPage(browser, baseURL);
    const toggle = await openToggle(page);
    // Blocked by the user earlier: the page reads the permission as denied.
    await page.evaluate(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
    await page.getByRole('tab', { name: 'Password & Security' }).click();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('status').filter({ hasText: 'Notifications are blocked for this site' }).waitFor();
    await expect.poll(() => toggle.isDisabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await shootAll(page, 'push-settings-blocked');
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
