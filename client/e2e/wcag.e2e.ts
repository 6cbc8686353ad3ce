// Issue 16 accessibility: axe-core on every screen, light and dark, desktop
// and mobile, with 0 serious or critical violations; and a keyboard-only walk
// — sign in, post, like, comment, open a notification — with no mouse at all.
// Runs after the other specs (file-name order) with its own two users.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings, type AxeFinding } from './support/axe';
import { launch, newPage, type PageProblems } from './support/browser';
import { png, postWithImages, writePng } from './support/images';
import { createStudent, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const walker = { name: 'Tara Sen', email: `tara.${n}@uni.test`, universityId: `BWU/BCA/22/${n}`, password: 'Tara#2025ok' };
const liker = { name: 'Omar Ali', email: `omar.${n}@uni.test`, universityId: `BWU/BCA/22/${n + 1}`, password: 'Omar#2025ok' };

/** What the focused element is called: its label, its text, or its placeholder. */
async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const labelled = el.getAttribute('aria-label');
    const byId = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
    return (labelled || byId || el.textContent || el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim();
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name matches, like a keyboard user would. */
async function tabTo(page: Page, name: RegExp, { back = false, max = 80 } = {}): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const got = await focusedName(page);
    if (name.test(got)) return;
    seen.push(got);
  }
  throw new Error(`Tab never reached ${name}; passed: ${seen.slice(-30).join(' | ')}`);
}

/** The focused element shows a visible focus indicator (outline or box-shadow). */
async function focusVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return false;
    const s = getComputedStyle(el);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
  });
}

describe('accessibility (issue 16)', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let other: Session;
  let self: Session;
  let postId = '';

  beforeAll(async () => {
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
    self = await createStudent({ baseURL, dataDir }, walker);
    other = await createStudent({ baseURL, dataDir }, liker);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('axe: the signed-out screens', async () => {
    const findings: AxeFinding[] = [];
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    findings.push(...(await axeAllVariants(page, 'login')));
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.getByLabel('Confirm password', { exact: true }).waitFor();
    // Issue 16 #9: with the strength meter under Password, Confirm password
    // stays level with it and its Show button stays centred on its input.
    await page.getByLabel('Password', { exact: true }).fill('abc12345');
    const box = async (sel: string) => (await page.locator(sel).boundingBox())!;
    const pwLabel = await box('label:text-is("Password")');
    const confirmLabel = await box('label:text-is("Confirm password")');
    expect(Math.abs(confirmLabel.y - pwLabel.y)).toBeLessThan(2);
    const confirmInput = await box('input[name="confirmPassword"]');
    const show = await box('button[aria-label="Show confirm password"]');
    expect(Math.abs(show.y + show.height / 2 - (confirmInput.y + confirmInput.height / 2))).toBeLessThan(2);
    findings.push(...(await axeAllVariants(page, 'signup')));
    expect(findings, describeFindings(findings)).toEqual([]);
  });

  it('keyboard only: sign in → post → like → comment → notification', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await tabTo(page, /^Email or university ID/);
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.type(walker.email);
    await tabTo(page, /^Password$/);
    await page.keyboard.type(walker.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Feed', level: 1 }).waitFor({ state: 'attached', timeout: 20_000 });

    // Post: the composer opens the dialog with the text box focused. Signing
    // in put focus on it already (issue 27 item 7).
    await page.waitForFunction(() => document.activeElement?.classList.contains('composer__prompt'));
    expect(await focusedName(page)).toMatch(/^What's on your mind/);
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create Post' });
    await dialog.waitFor();
    expect(await focusVisible(page)).toBe(true); // the text box shows its focus
    const text = `Keyboard only, line one #a11y ${n}`;
    await page.keyboard.type(text);
    // Tab stays inside the dialog all the way round (the hidden file input never takes focus).
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type !== 'file')).toBe(true);
    }
    await tabTo(page, /^Post$/);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    const card = page.locator('article.post-card', { hasText: text });
    await card.waitFor();
    postId = (await card.getAttribute('data-post-id')) ?? '';
    expect(postId).not.toBe('');
    // Focus came back to where the dialog was opened from.
    expect(await focusedName(page)).toMatch(/^What's on your mind/);

    // Like.
    await tabTo(page, /^Like$/);
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Liked' }).waitFor();

    // Comment: two lines with Shift+Enter, Enter sends.
    await tabTo(page, /^Comment$/);
    await page.keyboard.press('Enter');
    await tabTo(page, /^Write a comment/);
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Enter');
    await card.locator('.comment__text', { hasText: 'second line' }).waitFor();
    expect(await card.locator('.comment__text').first().textContent()).toBe('First line\nsecond line');

    // Someone likes the post: the bell counts it; open it by keyboard.
    expect((await api(baseURL, 'POST', `/posts/${postId}/like`, undefined, other.token)).status).toBe(200);
    await page.getByRole('button', { name: /^Notifications 1 unread/ }).waitFor({ timeout: 20_000 });
    // prefers-reduced-motion: the bell's pulse stops.
    const badge = page.locator('.top-bar__badge');
    expect(await badge.evaluate((el) => getComputedStyle(el).animationName)).toBe('bell-pulse');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await badge.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await tabTo(page, /^Notifications/, { back: true, max: 120 });
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.waitFor();
    await tabTo(page, new RegExp(liker.name));
    await page.keyboard.press('Enter');
    // docs/product.md §2.11: a like opens the feed; the panel closes and focus is not lost.
    await panel.waitFor({ state: 'detached' });
    await page.waitForURL((u) => u.pathname === '/');
    expect(problems.errors).toEqual([]);
  });

  it('axe: every signed-in screen', async () => {
    const findings: AxeFinding[] = [];
    const check = async (screen: string) => findings.push(...(await axeAllVariants(page, screen)));
    await page.goto('/');
    await page.locator('article.post-card').first().waitFor();
    await check('feed');
    await page.getByRole('button', { name: 'Create Post' }).first().click();
    await page.getByRole('dialog', { name: 'Create Post' }).waitFor();
    await check('create-post');
    // Issue 16: the composer with an image chosen shows its alt-text field.
    const pics = mkdtempSync(join(tmpdir(), 'campus-wcag-'));
    await page.getByTestId('post-images-input').setInputFiles(writePng(pics, 'quad.png', 640, 400, [200, 90, 40], [30, 60, 150]));
    await page.getByLabel('Description of image 1 (alt text)').waitFor();
    await check('create-post-alt-text');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
    await check('notifications');
    await page.keyboard.press('Escape');
    await page.getByRole('searchbox', { name: /^Search/ }).first().click();
    await page.getByRole('dialog', { name: 'Search' }).waitFor();
    await page.keyboard.type(liker.name.slice(0, 4));
    await page.locator('.search-result').first().waitFor();
    await check('search');
    await page.keyboard.press('Escape');
    await page.goto(`/post/${postId}`);
    await page.locator('article.post-card').waitFor();
    await check('post');
    // Issue 16: the full-screen image viewer, opened on a post with two images.
    const pictures = await postWithImages(
      baseURL,
      self.token,
      `Two pictures for the viewer ${n}`,
      [
        { name: 'a.png', data: png(900, 600, [240, 200, 60], [20, 80, 140]) },
        { name: 'b.png', data: png(600, 900, [30, 30, 30], [220, 220, 220]) },
      ],
      ['A sunflower field', ''],
    );
    expect(pictures.status).toBe(201);
    await page.goto(`/post/${pictures.id}`);
    await page.getByRole('button', { name: 'A sunflower field' }).click();
    await page.getByRole('dialog', { name: /image 1 of 2/ }).waitFor();
    await check('image-viewer');
    await page.keyboard.press('Escape');
    await page.goto('/profile');
    await page.getByRole('heading', { name: walker.name, level: 1 }).waitFor();
    await check('profile');
    await page.goto(`/profile/${other.user.id}`);
    await page.getByRole('heading', { name: liker.name, level: 1 }).waitFor();
    await check('profile-other');
    await page.goto('/friends');
    await page.getByRole('heading', { name: 'Friends', level: 1 }).waitFor();
    for (const tab of ['Friends', 'Requests', 'Suggestions']) {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
      await page.waitForTimeout(300);
      await check(`friends-${tab.toLowerCase()}`);
    }
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await check('settings');

    // Groups (issue 18): the directory, the create dialog, a group's page and tabs, the big screen.
    const handle = `wcag-${n}`;
    const made = await api<{ id: string }>(
      baseURL,
      'POST',
      '/groups',
      {
        name: `Accessible Fest ${n}`,
        handle,
        kind: 'event',
        visibility: 'public',
        description: 'Every screen, every theme',
        startsAt: new Date(Date.now() - 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      self.token,
    );
    expect(made.status, made.message).toBe(201);
    const gp = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: `Welcome, all ${n}`, visibility: 'public', groupId: made.data.id }, self.token);
    expect(gp.status, gp.message).toBe(201);
    expect((await api(baseURL, 'PUT', `/groups/${handle}/pin`, { postId: gp.data.post.id }, self.token)).status).toBe(200);
    await page.goto('/groups');
    await page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Your groups' }).waitFor();
    await check('groups');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('dialog', { name: 'Create group' }).waitFor();
    await check('group-create');
    await page.keyboard.press('Escape');
    await page.goto(`/g/${handle}`);
    await page.getByRole('heading', { name: `Accessible Fest ${n}`, level: 1 }).waitFor();
    await page.locator('article.post-card').first().waitFor();
    await check('group');
    for (const tab of ['About', 'Members', 'Requests']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.waitForTimeout(300);
      await check(`group-${tab.toLowerCase()}`);
    }
    await page.goto(`/g/${handle}/live`);
    await page.getByRole('article', { name: 'Pinned post' }).waitFor();
    await check('group-live');
    expect(findings, describeFindings(findings)).toEqual([]);
  }, 300_000); // about twenty screens, four variants each, on a shared 2-core machine
});
