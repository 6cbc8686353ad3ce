// Issue 27, item 1: @mentions that work. A types "@" and the start of B's
// handle in the create-post dialog: the typeahead lists B (same batch), the
// arrows and Enter insert "@handle "; the post shows the mention as a link to
// B's profile. B, signed in elsewhere, gets "A mentioned you in a post" live,
// opens it (the post), follows the mention to the profile (their @handle in
// the header), and answers with a comment that mentions A through the
// typeahead (Tab inserts); A's notification arrives live too. Searching B's
// handle, with its @, finds B first. Screenshots of the open typeahead, the
// notification and the profile at desktop and 360 px, light and dark; axe on
// each of them (0 serious or critical).

import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings, type AxeFinding } from './support/axe';
import { launch, NARROW, newPage, shootAll, type PageProblems } from './support/browser';
import { createStudent, loginUI, type Session, type Student } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const student = (first: string, last: string, i: number): Student => ({
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.mention.${n}@uni.test`,
  universityId: `BWU/BCA/22/${n + i}`,
  password: `${first}#2025men`,
});
const tara = student('Tara', 'Menon', 0);
const ishaan = student('Ishaan', 'Qureshi', 1);

type Browsing = { page: Page; problems: PageProblems };

/** A user's handle, as the server made it from their name. */
async function handleOf(s: Session): Promise<string> {
  const me = await api<{ user: { handle: string } }>(baseURL, 'GET', '/users/me', undefined, s.token);
  expect(me.status).toBe(200);
  expect(me.data.user.handle).toMatch(/^[a-z0-9_]{3,30}$/);
  return me.data.user.handle;
}

/** Presses Down in field until the list's chosen option is handle's (8 at most: one list). */
async function chooseOption(field: Locator, list: Locator, handle: string): Promise<void> {
  for (let i = 0; i < 8; i++) {
    if ((await list.getByRole('option', { selected: true }).textContent())?.includes(`@${handle} `)) return;
    await field.press('ArrowDown');
  }
  throw new Error(`@${handle} is not among the suggestions`);
}

describe('@mentions (issue 27)', () => {
  let browser: Browser;
  let a: Browsing;
  let b: Browsing;
  let sa: Session;
  let sb: Session;
  let aHandle = '';
  let bHandle = '';
  let postId = '';
  const findings: AxeFinding[] = [];
  const text = `Robot demo at six in lab 3 ${n}`;

  beforeAll(async () => {
    browser = await launch();
    sa = await createStudent({ baseURL, dataDir }, tara);
    sb = await createStudent({ baseURL, dataDir }, ishaan);
    [aHandle, bHandle] = [await handleOf(sa), await handleOf(sb)];
    [a, b] = await Promise.all([newPage(browser, baseURL), newPage(browser, baseURL)]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('A mentions B with the typeahead; the post links to B', async () => {
    await Promise.all([loginUI(a.page, tara), loginUI(b.page, ishaan)]);
    await a.page.getByRole('button', { name: /What's on your mind/ }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Create post' });
    const field = dialog.getByLabel('Post text');
    await field.pressSequentially(`${text} with @${bHandle.slice(0, 5)}`);

    const list = dialog.getByRole('listbox', { name: 'People to mention' });
    const option = list.getByRole('option', { name: new RegExp(ishaan.name) });
    await option.waitFor();
    expect(await option.textContent()).toContain(`@${bHandle} · Your batch`);
    // The field is the list's combobox: it points at the list and its chosen option.
    expect(await field.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    const chosen = await field.getAttribute('aria-activedescendant');
    expect(chosen).toBeTruthy();
    expect(await list.locator(`[id="${chosen}"]`).getAttribute('aria-selected')).toBe('true');
    await shootAll(a.page, 'mention-typeahead', NARROW);
    findings.push(...(await axeAllVariants(a.page, 'mention-typeahead')));

    // Escape closes the list and only the list; typing on keeps it closed.
    await field.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    // A new mention opens it again: Enter inserts the chosen person.
    await field.pressSequentially(` @${bHandle.slice(0, 6)}`);
    await option.waitFor();
    await chooseOption(field, list, bHandle);
    await field.press('Enter');
    await list.waitFor({ state: 'detached' });
    const value = await field.inputValue();
    expect(value.endsWith(`@${bHandle} `)).toBe(true);
    await field.pressSequentially('see you there');
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = a.page.locator('article.post-card', { hasText: text });
    await card.waitFor();
    postId = (await card.getAttribute('data-post-id')) ?? '';
    expect(postId).not.toBe('');
    const link = card.getByRole('link', { name: `@${bHandle}` }).last();
    expect(await link.getAttribute('href')).toBe(`/profile/${sb.user.id}`);
    // The one whose name was cut short (@Ishaa…) named no one: it stays text.
    expect(await card.getByRole('link', { name: `@${bHandle.slice(0, 5)}`, exact: true }).count()).toBe(0);
  });

  it('B is told live, opens the post and follows the mention to the profile', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Notifications 1 unread' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Notifications 1 unread' }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const row = panel.locator('li.notification', { hasText: `${tara.name} mentioned you in a post` });
    await row.waitFor();
    await row.getByText(text, { exact: false }).waitFor();
    await shootAll(page, 'mention-notification', NARROW);
    findings.push(...(await axeAllVariants(page, 'mention-notification')));

    await row.getByRole('button', { name: new RegExp(`${tara.name} mentioned you`) }).click();
    await page.waitForURL((u) => u.pathname === `/post/${postId}`);
    const card = page.locator('article.post-card', { hasText: text });
    await card.waitFor();
    await card.getByRole('link', { name: `@${bHandle}` }).last().click();
    await page.waitForURL((u) => u.pathname === `/profile/${sb.user.id}`);
    await page.getByRole('heading', { name: ishaan.name, level: 1 }).waitFor();
    await page.getByText(`@${bHandle}`, { exact: true }).waitFor();
    await shootAll(page, 'mention-profile', NARROW);
    findings.push(...(await axeAllVariants(page, 'mention-profile')));
  });

  it('B mentions A in a comment (Tab inserts); A is told live', async () => {
    const { page } = b;
    await page.goto(`/post/${postId}`);
    const field = page.getByLabel('Write a comment');
    await field.waitFor();
    await field.pressSequentially(`thanks @${aHandle.slice(0, 4)}`);
    const option = page.getByRole('listbox', { name: 'People to mention' }).getByRole('option', { name: new RegExp(tara.name) });
    await option.waitFor();
    // Down past any others to A, then Tab inserts.
    await chooseOption(field, page.getByRole('listbox', { name: 'People to mention' }), aHandle);
    await field.press('Tab');
    expect(await field.inputValue()).toBe(`thanks @${aHandle} `);
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.press('Enter'); // sends (the list is closed)
    const comment = page.locator('li.comment', { hasText: `thanks @${aHandle}` });
    await comment.waitFor();
    expect(await comment.getByRole('link', { name: `@${aHandle}` }).getAttribute('href')).toBe(`/profile/${sa.user.id}`);

    await a.page.getByRole('button', { name: /Notifications [1-9] unread/ }).waitFor({ timeout: 15_000 });
    await a.page.getByRole('button', { name: /Notifications [1-9] unread/ }).click();
    await a.page
      .getByRole('dialog', { name: 'Notifications' })
      .locator('li.notification', { hasText: `${ishaan.name} mentioned you in a comment` })
      .waitFor();
    await a.page.keyboard.press('Escape');
  });

  it("searching B's handle finds B first", async () => {
    // The index follows the database a moment behind.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await api<{ results: Array<{ id: string }> }>(baseURL, 'GET', `/search?q=${encodeURIComponent('@' + bHandle)}`, undefined, sa.token);
      if (res.data.results[0]?.id === sb.user.id) break;
      if (Date.now() > deadline) throw new Error(`search for @${bHandle}: ${JSON.stringify(res.data.results)}`);
      await a.page.waitForTimeout(200);
    }
    await a.page.goto(`/search?q=${encodeURIComponent('@' + bHandle)}`);
    const results = a.page.getByRole('list', { name: 'Search results' });
    await results.getByText(ishaan.name).first().waitFor();
    expect(await results.locator('li').first().textContent()).toContain(ishaan.name);
  });

  it('no serious or critical axe findings, and no page errors', () => {
    expect(findings, describeFindings(findings)).toEqual([]);
    expect([...a.problems.errors, ...b.problems.errors]).toEqual([]);
  });
});
