// Issue 27 item 7, the keyboard walk with focus asserted after every step:
// sign in (focus on the composer, not the body) → the skip link is the first
// Tab stop and moves focus to the page → the account menu opens on its first
// item, ↓ ↑ Home End move through it, Escape gives focus back to its button →
// a post's menu the same way → a comment sent with Enter, and one with the
// Send button, leave focus in the comment field. Screenshots of the skip link
// and of the menu opened by keyboard.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings } from './support/axe';
import { launch, NARROW, newPage, shootAll, type PageProblems } from './support/browser';
import { createStudent, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const walker = { name: 'Kavya Menon', email: `kavya.kb${n}@uni.test`, universityId: `BWU/BCA/24/${n}`, password: 'Kavya#2025ok' };

/** The focused element, described: tag, role, name and where it is. */
async function focused(page: Page): Promise<{ tag: string; role: string; name: string; id: string; inMenu: boolean; inMain: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', role: '', name: '', id: '', inMenu: false, inMain: false };
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim();
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role') ?? '',
      name,
      id: el.id,
      inMenu: !!el.closest('[role="menu"]'),
      inMain: !!el.closest('#main'),
    };
  });
}

async function press(page: Page, key: string) {
  await page.keyboard.press(key);
}

describe('keyboard walk (issue 27 item 7)', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let me: Session;
  let postId = '';

  beforeAll(async () => {
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
    me = await createStudent({ baseURL, dataDir }, walker);
    const p = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: `Keyboard walk ${n}`, visibility: 'public' }, me.token);
    expect(p.status).toBe(201);
    postId = p.data.post.id;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sign in by keyboard: focus lands on the composer', async () => {
    await page.goto('/login');
    await page.getByLabel('Email or university ID').focus();
    expect((await focused(page)).tag).toBe('input');
    await page.keyboard.type(walker.email);
    // Tab to the password (past nothing but the form's own controls).
    for (let i = 0; i < 4; i++) {
      await press(page, 'Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('form'))).toBe(true);
      if (await page.evaluate(() => (document.activeElement as HTMLInputElement).type === 'password')) break;
    }
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('password');
    await page.keyboard.type(walker.password);
    await press(page, 'Enter');
    await page.waitForFunction(() => document.activeElement?.classList.contains('composer__prompt'), undefined, { timeout: 20_000 });
    const f = await focused(page);
    expect(f.name).toMatch(/^What's on your mind/);
    expect(f.inMain).toBe(true);
  });

  it('the skip link is the first Tab stop and moves focus to the page', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await press(page, 'Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', name: 'Skip to main content' });
    const link = await page.getByRole('link', { name: 'Skip to main content' }).boundingBox();
    expect(link!.y).toBeGreaterThanOrEqual(0); // shown while focused
    expect(link!.height).toBeGreaterThanOrEqual(24);
    await shootAll(page, 'keyboard-skip-link', NARROW);
    // shootAll moved the viewport: focus is still on the link.
    expect((await focused(page)).name).toBe('Skip to main content');
    await press(page, 'Enter');
    expect((await focused(page)).id).toBe('main');
    // From the page, the composer is a few Tabs on (the issue counted 13
    // from the top before), every one of them inside the page.
    let tabs = 1; // the one to the skip link
    for (;;) {
      await press(page, 'Tab');
      tabs++;
      const next = await focused(page);
      expect(next.inMain).toBe(true);
      if (/^What's on your mind/.test(next.name)) break;
      expect(tabs).toBeLessThan(8);
    }
  });

  it('the account menu: opens on its first item, arrows rove, Home/End, Escape back to the button', async () => {
    const trigger = page.getByRole('button', { name: 'Account menu' });
    await trigger.focus();
    expect((await focused(page)).name).toBe('Account menu');
    await press(page, 'Enter');
    await page.getByRole('menu', { name: 'Account' }).waitFor();
    const names = (await page.getByRole('menu', { name: 'Account' }).getByRole('menuitem').allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());
    expect(names.length).toBeGreaterThanOrEqual(4);
    let f = await focused(page);
    expect(f).toMatchObject({ role: 'menuitem', inMenu: true });
    expect(f.name).toMatch(/View your profile/);
    await press(page, 'ArrowDown');
    expect((await focused(page)).name).toBe(names[1]);
    await press(page, 'End');
    expect((await focused(page)).name).toBe(names[names.length - 1]);
    await press(page, 'ArrowDown'); // wraps to the first
    expect((await focused(page)).name).toBe(names[0]);
    await press(page, 'ArrowUp'); // and back to the last
    expect((await focused(page)).name).toBe(names[names.length - 1]);
    await press(page, 'Home');
    expect((await focused(page)).name).toBe(names[0]);
    // Only the current item is in the Tab order.
    expect(await page.evaluate(() => Array.from(document.querySelectorAll('[role="menuitem"]')).filter((el) => (el as HTMLElement).tabIndex === 0).length)).toBe(1);
    // Display & accessibility: its Back button takes focus, and back again.
    for (let i = 0; i < names.length; i++) {
      if (/Display & accessibility/.test((await focused(page)).name)) break;
      await press(page, 'ArrowDown');
    }
    await press(page, 'Enter');
    expect((await focused(page)).name).toBe('Back');
    await press(page, 'Enter');
    expect((await focused(page)).name).toMatch(/Display & accessibility/);
    await shootAll(page, 'keyboard-account-menu', NARROW);
    await trigger.focus();
    if (!(await page.getByRole('menu', { name: 'Account' }).isVisible())) await press(page, 'Enter');
    await press(page, 'ArrowDown');
    await press(page, 'Escape');
    await page.getByRole('menu', { name: 'Account' }).waitFor({ state: 'detached' });
    f = await focused(page);
    expect(f.name).toBe('Account menu');
  });

  it("a post's menu: the same keys, Escape back to its button", async () => {
    const card = page.locator(`article.post-card[data-post-id="${postId}"]`);
    await card.getByRole('button', { name: 'Post options' }).focus();
    await press(page, 'Enter');
    await card.getByRole('menu').waitFor();
    expect((await focused(page)).name).toMatch(/Copy link/);
    await press(page, 'End');
    const items = await card.getByRole('menuitem').allTextContents();
    expect((await focused(page)).name).toBe(items[items.length - 1]!.replace(/\s+/g, ' ').trim());
    await press(page, 'Escape');
    await card.getByRole('menu').waitFor({ state: 'detached' });
    expect((await focused(page)).name).toBe('Post options');
  });

  it('a comment sent by Enter, and one by the Send button, leave focus in the comment field', async () => {
    const card = page.locator(`article.post-card[data-post-id="${postId}"]`);
    await card.getByRole('button', { name: 'Comment', exact: true }).focus();
    await press(page, 'Enter');
    const field = card.getByLabel('Write a comment');
    await field.waitFor();
    await field.focus();
    await page.keyboard.type('Sent with Enter');
    await press(page, 'Enter');
    await card.locator('.comment__text', { hasText: 'Sent with Enter' }).waitFor();
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe('');
    await page.keyboard.type('Sent with the button');
    await press(page, 'Tab');
    expect((await focused(page)).name).toBe('Send');
    await press(page, 'Enter');
    await card.locator('.comment__text', { hasText: 'Sent with the button' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    const findings = await axeAllVariants(page, 'feed-comments-keyboard');
    expect(findings, describeFindings(findings)).toEqual([]);
    expect(problems.errors).toEqual([]);
  });
});
