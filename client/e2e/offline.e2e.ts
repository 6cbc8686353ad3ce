// Issue 27 item 5, reading offline: A reads the feed, B's profile and the
// notifications; the browser goes offline (context.setOffline) and a reload
// opens the app from the service worker with the feed A last read and an
// "offline" notice (never "Couldn't load posts"); B's profile is the one last
// read (never "Profile not found"), a profile never read says it is
// unavailable offline, the notifications panel lists what A last saw. Back
// online, the open page loads by itself, with no click. Logging out removes
// what was kept. axe and screenshots of each offline screen.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings, type AxeFinding } from './support/axe';
import { launch, NARROW, newPage, shootAll, type PageProblems } from './support/browser';
import { createStudent, loginUI, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const person = (first: string, last: string, i: number) => ({
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.off${n}@uni.test`,
  universityId: `BWU/BCA/26/${n + i}`,
  password: `${first}#2025x`,
});
const reader = person('Anika', 'Bose', 0);
const friend = person('Bilal', 'Khan', 1);
const stranger = person('Chen', 'Wei', 2);
const myPost = `Notes from the library, offline edition ${n}`;
const hisPost = `Bilal's robotics log ${n}`;

/** Errors that going offline causes on purpose (failed requests and their logs). */
function offlineNoise(text: string): boolean {
  return /ERR_INTERNET_DISCONNECTED|Failed to fetch|Network error|You are offline|load failed|WebSocket|net::ERR|failed to load|Feed load failed/i.test(text);
}

describe('reading offline (issue 27 item 5)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  const s: Record<string, Session> = {};

  beforeAll(async () => {
    for (const u of [reader, friend, stranger]) s[u.email] = await createStudent({ baseURL, dataDir }, u);
    const mine = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: myPost, visibility: 'public' }, s[reader.email]!.token);
    expect(mine.status).toBe(201);
    expect((await api(baseURL, 'POST', '/posts', { content: hisPost, visibility: 'public' }, s[friend.email]!.token)).status).toBe(201);
    expect((await api(baseURL, 'POST', `/posts/${mine.data.post.id}/like`, undefined, s[friend.email]!.token)).status).toBe(200);
    browser = await launch();
    ({ context, page, problems } = await newPage(browser, baseURL));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('online: A reads the feed, B’s profile and the notifications', async () => {
    await loginUI(page, reader);
    await page.locator('article.post-card', { hasText: myPost }).waitFor();
    await page.goto(`/profile/${s[friend.email]!.user.id}`);
    await page.getByRole('heading', { name: friend.name, level: 1 }).waitFor();
    await page.locator('article.post-card', { hasText: hisPost }).waitFor();
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByText(new RegExp(`${friend.name} liked your post`)).waitFor();
    await page.keyboard.press('Escape');
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('campus.offline') ?? 'null') as { userId: string; entries: Record<string, unknown> } | null);
    expect(kept?.userId).toBe(s[reader.email]!.user.id);
    expect(Object.keys(kept?.entries ?? {}).sort()).toEqual(['feed', 'notifications', `profile:${s[friend.email]!.user.id}`]);
    // The shell must come from the service worker once offline.
    await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', undefined, { timeout: 90_000 });
  });

  it('offline: the feed last read, with an offline notice, never "Couldn\'t load posts"', async () => {
    await context.setOffline(true);
    await page.goto('/');
    await page.locator('article.post-card', { hasText: myPost }).waitFor();
    const notice = page.getByTestId('offline-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/^You’re offline\. Showing posts as of .+\. This page refreshes by itself when the connection is back\.$/);
    expect(await page.getByText("Couldn't load posts").count()).toBe(0);
    const findings: AxeFinding[] = await axeAllVariants(page, 'offline-feed');
    await shootAll(page, 'offline-feed', NARROW);

    // B's profile, as last read.
    await page.goto(`/profile/${s[friend.email]!.user.id}`);
    await page.getByRole('heading', { name: friend.name, level: 1 }).waitFor();
    await page.locator('article.post-card', { hasText: hisPost }).waitFor();
    await page.getByTestId('offline-notice').waitFor();
    expect(await page.getByText('Profile not found').count()).toBe(0);
    findings.push(...(await axeAllVariants(page, 'offline-profile')));
    await shootAll(page, 'offline-profile', NARROW);

    // The notifications A last saw.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByText(new RegExp(`${friend.name} liked your post`)).waitFor();
    await panel.getByTestId('offline-notice').waitFor();
    findings.push(...(await axeAllVariants(page, 'offline-notifications')));
    await shootAll(page, 'offline-notifications', NARROW);
    await page.keyboard.press('Escape');

    // A profile never read: unavailable offline, not "not found".
    await page.goto(`/profile/${s[stranger.email]!.user.id}`);
    await page.getByRole('heading', { name: 'Profile unavailable offline', level: 1 }).waitFor();
    expect(await page.getByText('Profile not found').count()).toBe(0);
    findings.push(...(await axeAllVariants(page, 'offline-profile-unread')));
    await shootAll(page, 'offline-profile-unread', NARROW);
    expect(findings, describeFindings(findings)).toEqual([]);
  });

  it('back online: the open page loads by itself, no click', async () => {
    // On the profile never read: it appears once the network is back.
    await context.setOffline(false);
    await page.getByRole('heading', { name: stranger.name, level: 1 }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('offline-notice').count()).toBe(0);
    // And B's profile, shown offline a moment ago, is live again: a new post of his appears.
    const fresh = `Bilal, live again ${n}`;
    expect((await api(baseURL, 'POST', '/posts', { content: fresh, visibility: 'public' }, s[friend.email]!.token)).status).toBe(201);
    await context.setOffline(true);
    await page.goto(`/profile/${s[friend.email]!.user.id}`);
    await page.getByTestId('offline-notice').waitFor();
    expect(await page.locator('article.post-card', { hasText: fresh }).count()).toBe(0);
    await context.setOffline(false);
    await page.locator('article.post-card', { hasText: fresh }).waitFor({ timeout: 30_000 });
    await page.getByTestId('offline-notice').waitFor({ state: 'detached' });
  });

  it('logging out removes what was kept', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Log Out/ }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('campus.offline'))).toBeNull();
    expect(problems.errors.filter((e) => !offlineNoise(e))).toEqual([]);
  });
});
