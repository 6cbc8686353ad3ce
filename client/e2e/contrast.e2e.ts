// Issue 27 item 8, contrast and targets: the screens the walk flagged — the
// moderation queue, Settings → Blocked people, the danger buttons (Remove,
// Suspend, Delete account, Block, Unblock) — pass axe with 0 serious or
// critical findings at 1280 px, 390 px and 360 px, light and dark; every
// danger button's text is ≥ 4.5:1 on its red in both themes (computed from
// the page's own colours); the timestamp and "N comments" are targets of at
// least 24 × 24 px at desktop and 360 px. Screenshots of each.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings, type AxeFinding } from './support/axe';
import { DESKTOP, launch, NARROW, newPage, shootAll, type PageProblems } from './support/browser';
import { CLIENT_DIR } from './support/server';
import { createStudent, loginUI, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const person = (first: string, last: string, i: number) => ({
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.ct${n}@uni.test`,
  universityId: `BWU/BCA/25/${n + i}`,
  password: `${first}#2025x`,
});
const mod = person('Maya', 'Moderator', 0);
const reporter = person('Rohan', 'Reporter', 1);
const poster = person('Pia', 'Poster', 2);

/** The contrast of an element's text on its own background (WCAG's formula, from computed colours). */
async function contrastOf(page: Page, selector: string): Promise<{ text: string; ratio: number }[]> {
  return page.locator(selector).evaluateAll((els) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    return els.map((el) => {
      const s = getComputedStyle(el);
      const a = lum(rgb(s.color));
      const b = lum(rgb(s.backgroundColor));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      return { text: (el.textContent ?? '').trim(), ratio: Math.round(ratio * 100) / 100 };
    });
  });
}

/**
 * Puts the page in a colour scheme and waits until the app has applied it: the
 * theme reaches `<html data-theme>` through React after the media query
 * changes, so a measurement straight after emulateMedia can read the old
 * theme's colours. Reduced motion turns transitions off, so no colour is
 * read halfway.
 */
async function useScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, scheme);
}

/** Each danger button on screen is ≥ 4.5:1 in light and in dark. */
async function dangerContrast(page: Page, where: string): Promise<string[]> {
  const bad: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useScheme(page, scheme);
    const found = await contrastOf(page, '.button--danger');
    if (found.length === 0) bad.push(`${where}: no danger button`);
    for (const f of found) if (f.ratio < 4.5) bad.push(`${where} [${scheme}] "${f.text}" ${f.ratio}:1`);
  }
  await useScheme(page, 'light');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  return bad;
}

describe('contrast and targets (issue 27 item 8)', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  const s: Record<string, Session> = {};
  let postId = '';

  beforeAll(async () => {
    for (const u of [mod, reporter, poster]) s[u.email] = await createStudent({ baseURL, dataDir }, u);
    const bin = resolve(CLIENT_DIR, process.env.CAMPUS_BIN ?? '../bin/campus');
    execFileSync(bin, ['admin', 'grant', mod.email], {
      env: { ...process.env, CAMPUS_DATA_DIR: dataDir, CAMPUS_LOG_LEVEL: 'warn', DATABASE_URL: '' },
      encoding: 'utf8',
    });
    const p = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: `Buy cheap followers ${n}`, visibility: 'public' }, s[poster.email]!.token);
    expect(p.status).toBe(201);
    postId = p.data.post.id;
    for (const t of [s[reporter.email]!, s[mod.email]!]) {
      expect((await api(baseURL, 'POST', `/posts/${postId}/comments`, { content: 'Not again' }, t.token)).status).toBe(201);
    }
    const r = await api(baseURL, 'POST', '/reports', { itemType: 'post', itemId: postId, reason: 'spam' }, s[reporter.email]!.token);
    expect(r.status, r.message).toBe(201);
    expect((await api(baseURL, 'POST', `/safety/blocks/${s[poster.email]!.user.id}`, undefined, s[reporter.email]!.token)).status).toBe(200);
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the moderation queue: axe clean, Remove and Suspend ≥ 4.5:1 in both themes', async () => {
    await loginUI(page, mod);
    await page.goto('/moderation');
    const item = page.locator('article.moderation__item', { hasText: `Buy cheap followers ${n}` });
    await item.waitFor();
    const findings: AxeFinding[] = await axeAllVariants(page, 'moderation-queue');
    expect(findings, describeFindings(findings)).toEqual([]);
    expect(await dangerContrast(page, 'moderation')).toEqual([]);
    // The grey text the walk measured at 3:1 (#666 on the dark surface).
    await useScheme(page, 'dark');
    for (const f of await contrastOf(page, '.moderation__item *:not(button):not(svg):not(path)')) {
      if (f.text) expect(f.ratio === 1 || f.ratio >= 4.5, `"${f.text}" ${f.ratio}:1`).toBe(true);
    }
    await useScheme(page, 'light');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await item.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this content?' });
    await dialog.waitFor();
    expect(await dangerContrast(page, 'remove dialog')).toEqual([]);
    await shootAll(page, 'contrast-moderation-remove', NARROW);
    await page.keyboard.press('Escape');
    await shootAll(page, 'contrast-moderation', NARROW);
  });

  it('Settings → Blocked people and Delete account: axe clean, danger ≥ 4.5:1', async () => {
    await page.evaluate(() => localStorage.clear());
    await loginUI(page, reporter);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Blocked people' }).click();
    await page.getByText(poster.name).waitFor();
    const findings = await axeAllVariants(page, 'settings-blocked');
    await shootAll(page, 'contrast-settings-blocked', NARROW);
    await page.getByRole('tab', { name: /Delete account/i }).click();
    await page.locator('.button--danger').first().waitFor();
    findings.push(...(await axeAllVariants(page, 'settings-delete')));
    expect(findings, describeFindings(findings)).toEqual([]);
    expect(await dangerContrast(page, 'delete account')).toEqual([]);
    await shootAll(page, 'contrast-settings-delete', NARROW);
  });

  it('Block in a confirm dialog: ≥ 4.5:1 in both themes', async () => {
    await page.goto(`/profile/${s[mod.email]!.user.id}`);
    await page.getByRole('heading', { name: mod.name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByRole('dialog', { name: `Block ${mod.name}?` }).waitFor();
    expect(await dangerContrast(page, 'block dialog')).toEqual([]);
    const findings = await axeAllVariants(page, 'block-dialog');
    expect(findings, describeFindings(findings)).toEqual([]);
    await shootAll(page, 'contrast-block-dialog', NARROW);
    await page.keyboard.press('Escape');
  });

  it('the timestamp and "N comments" are targets of at least 24 × 24 px, at desktop and 360 px', async () => {
    // The reporter blocked the poster: the moderator's view of the post instead.
    await page.evaluate(() => localStorage.clear());
    await loginUI(page, mod);
    for (const size of [DESKTOP, NARROW]) {
      await page.setViewportSize(size);
      await page.goto(`/post/${postId}`);
      const card = page.locator(`article.post-card[data-post-id="${postId}"]`);
      await card.waitFor();
      for (const target of [card.locator('.post-card__time'), card.getByRole('button', { name: /2 comments/ })]) {
        const box = await target.boundingBox();
        expect(box, `${size.width}px`).not.toBeNull();
        expect(box!.width, `${size.width}px ${await target.textContent()}`).toBeGreaterThanOrEqual(24);
        expect(box!.height, `${size.width}px ${await target.textContent()}`).toBeGreaterThanOrEqual(24);
      }
    }
    await page.setViewportSize(DESKTOP);
    await shootAll(page, 'contrast-feed-targets', NARROW);
    expect(problems.errors).toEqual([]);
  });
});
