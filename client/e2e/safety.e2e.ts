// Issue 17 in Chromium on a real server: A reports B's post; a moderator
// opens /moderation and removes it; B is told why; A blocks C and C's
// posts vanish from A's feed and search. Screenshots of the queue and the
// blocked list, light and dark, desktop and mobile.
//
// The moderator needs the admin command, which opens the database itself:
// this spec runs its own server, stops it to grant, and starts it again on
// the same data dir.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api';
import { launch, newPage, shootAll } from './support/browser';
import { loginUI, signUp } from './support/users';
import { CLIENT_DIR, startServer, type RunningServer } from './support/server';

const n = (Date.now() % 900_000) + 100_000;
const person = (first: string, last: string, i: number) => ({
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.${n}@uni.test`,
  universityId: `BWU/BCA/22/${n + i}`,
  password: `${first}#2025x`,
});
const asha = person('Asha', 'Rao', 0);
const bikram = person('Bikram', 'Sen', 1);
const chitra = person('Chitra', 'Iyer', 2);
const mod = person('Moni', 'Das', 3);
const bPost = `Buy cheap followers now ${n}`;
const cPost = `Chitra writes about quasars ${n}`;

let server: RunningServer;
let browser: Browser;

function postCard(page: Page, text: string) {
  return page.locator('article.post-card', { hasText: text });
}

async function searchFor(page: Page, q: string) {
  await page.getByRole('searchbox', { name: 'Search Campus' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Search' });
  await dialog.getByRole('searchbox', { name: 'Search Campus' }).fill(q);
  return dialog;
}

describe('safety: report, moderate, block', () => {
  beforeAll(async () => {
    const first = await startServer({ keepData: true });
    const tokens: Record<string, string> = {};
    for (const u of [asha, bikram, chitra, mod]) tokens[u.email] = await signUp(first, u);
    for (const [u, text] of [
      [bikram, bPost],
      [chitra, cPost],
    ] as const) {
      const res = await api(first.baseURL, 'POST', '/posts', { content: text, visibility: 'public' }, tokens[u.email]);
      expect(res.status).toBe(201);
    }
    await first.stop();
    const bin = resolve(CLIENT_DIR, process.env.CAMPUS_BIN ?? '../bin/campus');
    execFileSync(bin, ['admin', 'grant', mod.email], { env: { ...process.env, CAMPUS_DATA_DIR: first.dataDir, CAMPUS_LOG_LEVEL: 'warn' } });
    server = await startServer({ dataDir: first.dataDir });
    browser = await launch();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('A reports B, a moderator removes the post, B sees why; A blocks C', async () => {
    const a = await newPage(browser, server.baseURL);
    await loginUI(a.page, asha);
    // Report B's post from its menu.
    const card = postCard(a.page, bPost);
    await card.getByRole('button', { name: 'Post options' }).click();
    await card.getByRole('menuitem', { name: 'Report post' }).click();
    const report = a.page.getByRole('dialog', { name: 'Report post' });
    await report.getByLabel('Spam').check();
    await report.getByRole('button', { name: 'Send report' }).click();
    await a.page.getByText('Thanks for reporting. A moderator will look at it.').waitFor();

    // The moderator's queue shows it; remove it, with a reason.
    const m = await newPage(browser, server.baseURL);
    await loginUI(m.page, mod);
    await m.page.goto('/moderation');
    const item = m.page.locator('article.moderation__item', { hasText: bPost });
    await item.waitFor();
    expect(await item.textContent()).toContain('1 report');
    await shootAll(m.page, 'moderation-queue');
    await item.focus(); // keyboard: the item is reachable, its buttons follow with Tab
    await item.getByRole('button', { name: 'Remove' }).click();
    const dialog = m.page.getByRole('dialog', { name: 'Remove this content?' });
    await dialog.getByRole('textbox').fill('Spam');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await m.page.getByText('Content removed; the author was told why').waitFor();
    await m.page.getByText('There are no open reports.').waitFor();
    await shootAll(m.page, 'moderation-queue-empty');
    // The moderator is an admin: the audit log holds the removal, who and why.
    await m.page.reload();
    const audit = m.page.getByRole('list', { name: 'Audit log' });
    await audit.getByText(/removed/).waitFor();
    expect(await audit.textContent()).toContain('Spam');

    // B is told why.
    const b = await newPage(browser, server.baseURL);
    await loginUI(b.page, bikram);
    await b.page.getByRole('button', { name: /^Notifications 1 unread/ }).click();
    await b.page.getByRole('dialog', { name: 'Notifications' }).getByText('A moderator removed your post. Reason: Spam').waitFor();

    // A's feed no longer has the removed post after a reload.
    await a.page.reload();
    await postCard(a.page, cPost).waitFor();
    expect(await postCard(a.page, bPost).count()).toBe(0);

    // Before the block, search finds C's post.
    let search = await searchFor(a.page, `quasars ${n}`);
    await search.getByRole('button', { name: new RegExp(`quasars ${n}`) }).first().waitFor({ timeout: 15_000 });
    await a.page.keyboard.press('Escape');

    // A blocks C from C's post: C's posts vanish from the feed and from search.
    const cCard = postCard(a.page, cPost);
    await cCard.getByRole('button', { name: 'Post options' }).click();
    await cCard.getByRole('menuitem', { name: 'Block author' }).click();
    await a.page.getByRole('dialog', { name: `Block ${chitra.name}?` }).getByRole('button', { name: 'Block' }).click();
    await a.page.getByText(`${chitra.name} is blocked`).waitFor();
    expect(await postCard(a.page, cPost).count()).toBe(0);
    await a.page.reload();
    await a.page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    expect(await postCard(a.page, cPost).count()).toBe(0);
    search = await searchFor(a.page, `quasars ${n}`);
    await search.getByText(/No results/i).first().waitFor({ timeout: 15_000 });
    await a.page.keyboard.press('Escape');

    // The blocked list in Settings.
    await a.page.goto('/settings');
    await a.page.getByRole('tab', { name: 'Blocked people' }).click();
    await a.page.getByRole('list', { name: 'Blocked people' }).getByText(chitra.name).waitFor();
    await shootAll(a.page, 'settings-blocked');

    for (const s of [a, m, b]) {
      expect(s.problems.errors).toEqual([]);
      await s.context.close();
    }
  }, 180_000);
});
