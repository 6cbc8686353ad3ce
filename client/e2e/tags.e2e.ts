// Issue 27 items 2 and 3: tags, trending on campus, and a search that finds
// groups and forgives a typo. Chitra posts with a #tag (one post liked), in
// a public club and in a secret one; Chen, whom Bilal blocked, uses the tag
// too. Bilal finds the tag trending in the feed's right column, follows it
// to its page (Chitra's posts only: not Chen's, not the secret club's),
// switches Newest / Top with the arrow keys, sees a like arrive live on a
// card and a new post announced by the pill. A #tag in a post leads to the
// same page. Search: "Chitra Iyr" finds Chitra Iyer; the club by name (the
// secret one never), the tag with its count; with nothing typed, what is
// trending; all reached with the keyboard. axe and screenshots of each
// screen, desktop and 360 px, light and dark; nothing wider than 360 px.

import type { Browser, Page } from 'playwright-core';
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
  email: `${first.toLowerCase()}.tag${n}@uni.test`,
  universityId: `BWU/BCA/27/${n + i}`,
  password: `${first}#2025x`,
});
const chitra = person('Chitra', 'Iyer', 0);
const bilal = person('Bilal', 'Khan', 1);
const chen = person('Chen', 'Wei', 2);
const dev = person('Dev', 'Roy', 3);
const tag = `chess${n}`;
const opening = `Opening night at the library #Chess${n}`;
const endgame = `Endgame study group, bring a board #chess${n}`;
const blockedPost = `Chen's take #chess${n}`;
const secretPost = `Cabal plans #chess${n}`;
const club = `Chess Club ${n}`;
const cabal = `Chess Cabal ${n}`;

/** Fails when the page is wider than the viewport (a horizontal scroll at 360 px). */
async function noSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

describe('tags, trending and search (issue 27 items 2 and 3)', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  const s: Record<string, Session> = {};
  const ids: Record<string, string> = {};
  const findings: AxeFinding[] = [];

  beforeAll(async () => {
    for (const u of [chitra, bilal, chen, dev]) s[u.email] = await createStudent({ baseURL, dataDir }, u);
    const tokC = s[chitra.email]!.token;
    const made = await api<{ id: string; handle: string }>(baseURL, 'POST', '/groups', { name: club, handle: `chess-club-${n}`, kind: 'club', visibility: 'public', description: 'Weekly games' }, tokC);
    expect(made.status).toBe(201);
    ids.club = made.data.handle;
    const secret = await api<{ id: string }>(baseURL, 'POST', '/groups', { name: cabal, handle: `chess-cabal-${n}`, kind: 'club', visibility: 'secret' }, tokC);
    expect(secret.status).toBe(201);
    for (const [content, token, groupId] of [
      [opening, tokC, undefined],
      [endgame, tokC, undefined],
      [blockedPost, s[chen.email]!.token, undefined],
      [secretPost, tokC, secret.data.id],
    ] as const) {
      const r = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content, visibility: 'public', ...(groupId ? { groupId } : {}) }, token);
      expect(r.status).toBe(201);
      ids[content] = r.data.post.id;
    }
    // The opening moves: two likes now.
    for (const who of [dev, chen]) expect((await api(baseURL, 'POST', `/posts/${ids[opening]}/like`, undefined, s[who.email]!.token)).status).toBe(200);
    expect((await api(baseURL, 'POST', `/safety/blocks/${s[chen.email]!.user.id}`, undefined, s[bilal.email]!.token)).status).toBe(200);
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the feed’s right column shows the tag trending; it leads to the tag’s page', async () => {
    await loginUI(page, bilal);
    // Trending is computed at most once a minute per node (and other specs
    // may have read it before these posts): read the feed again until the
    // tag is there. Until then the card may show other specs' moving posts
    // and no tags at all.
    const card = page.getByRole('region', { name: 'Trending on campus' });
    const link = card.getByRole('link', { name: `#${tag}`, exact: true });
    const deadline = Date.now() + 150_000;
    for (;;) {
      await card.locator('.trending__tags, .trending__posts, .trending__empty').first().waitFor();
      if ((await link.count()) > 0) break;
      if (Date.now() > deadline) throw new Error('the tag never trended');
      await page.waitForTimeout(5_000);
      await page.reload();
    }
    expect(await link.getAttribute('href')).toBe(`/tags/${tag}`);
    findings.push(...(await axeAllVariants(page, 'feed-trending')));
    await shootAll(page, 'tags-feed-trending', NARROW);
    await link.click();
    await page.waitForURL(`**/tags/${tag}`);
  }, 240_000);

  it('the tag’s page: Bilal’s view only, Newest and Top with the arrow keys, a like arriving live', async () => {
    await page.getByRole('heading', { level: 1, name: `#${tag}` }).waitFor();
    await page.getByText('2 posts', { exact: true }).waitFor();
    const cards = page.locator('article.post-card');
    await cards.first().waitFor();
    expect(await cards.allInnerTexts().then((t) => t.map((x) => (x.includes(endgame) ? 'endgame' : x.includes(opening) ? 'opening' : x)))).toEqual(['endgame', 'opening']);
    expect(await page.getByText(blockedPost).count()).toBe(0);
    expect(await page.getByText(secretPost).count()).toBe(0);
    findings.push(...(await axeAllVariants(page, 'tag-page-newest')));
    await shootAll(page, 'tags-page-newest', NARROW);

    // Top, by the keyboard: the liked post first.
    const newest = page.getByRole('tab', { name: 'Newest' });
    await newest.focus();
    await page.keyboard.press('ArrowRight');
    const top = page.getByRole('tab', { name: 'Top' });
    expect(await top.getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Top');
    await page.waitForFunction((first) => document.querySelector('article.post-card')?.textContent?.includes(first) ?? false, opening);
    findings.push(...(await axeAllVariants(page, 'tag-page-top')));
    await shootAll(page, 'tags-page-top', NARROW);

    // A like by someone else moves the count on the card, live (the card
    // watches its post over the socket; nothing is read again).
    const likes = page.locator(`article[data-post-id="${ids[opening]}"] [data-testid="likes-count"]`);
    expect(await likes.textContent()).toBe('2');
    expect((await api(baseURL, 'POST', `/posts/${ids[opening]}/like`, undefined, s[chitra.email]!.token)).status).toBe(200);
    await page.waitForFunction(
      (id) => document.querySelector(`article[data-post-id="${id}"] [data-testid="likes-count"]`)?.textContent === '3',
      ids[opening],
      { timeout: 30_000 },
    );
    await page.getByRole('tab', { name: 'Top' }).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await newest.getAttribute('aria-selected')).toBe('true');
  });

  it('a new post with the tag is announced by the pill and shown when pressed', async () => {
    const fresh = `Simul tonight, all welcome #CHESS${n}`;
    expect((await api(baseURL, 'POST', '/posts', { content: fresh, visibility: 'public' }, s[chitra.email]!.token)).status).toBe(201);
    // Coming back to the tab reads the newest page at once (else every 30 s).
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const pill = page.getByRole('button', { name: /1 new post/ });
    await pill.waitFor({ timeout: 30_000 });
    expect(await page.locator('article.post-card').first().innerText()).not.toContain(fresh);
    await pill.click();
    await page.waitForFunction((t) => document.querySelector('article.post-card')?.textContent?.includes(t) ?? false, fresh);
    await page.getByText('3 posts', { exact: true }).waitFor();
  });

  it('a #tag in a post leads to the tag’s page', async () => {
    await page.goto(`/profile/${s[chitra.email]!.user.id}`);
    const inPost = page.locator('article.post-card', { hasText: endgame }).getByRole('link', { name: `#chess${n}` });
    expect(await inPost.getAttribute('href')).toBe(`/tags/${tag}`);
    await inPost.click();
    await page.getByRole('heading', { level: 1, name: `#${tag}` }).waitFor();
    // At 360 px the page fits: no sideways scroll.
    await page.setViewportSize(NARROW);
    await page.locator('article.post-card').first().waitFor();
    await noSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('search: a typo in a name, groups (never the secret one) and tags, trending with nothing typed; by keyboard', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await page.getByRole('searchbox', { name: /^Search/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    const box = dialog.getByRole('searchbox');

    // Nothing typed: what is trending, reached with the arrow keys.
    await dialog.getByRole('heading', { name: 'Trending on campus' }).waitFor();
    const trendingTag = dialog.getByRole('button', { name: new RegExp(`#${tag}.*Tag`) });
    await trendingTag.waitFor();
    findings.push(...(await axeAllVariants(page, 'search-trending')));
    await shootAll(page, 'tags-search-trending', NARROW);

    // One letter off. Other specs have a Chitra Iyer of their own: this one
    // is told by her university ID.
    await box.fill('Chitra Iyr');
    const person = dialog.getByRole('button', { name: new RegExp(`Chitra Iyer.*${chitra.universityId}.*User`) });
    await person.waitFor();
    expect(await dialog.locator('.search-result').first().innerText()).toContain('Chitra Iyer');

    // Groups by name, first by kind; the secret one never.
    await box.fill(`chess club ${n}`);
    const group = dialog.getByRole('button', { name: new RegExp(`${club}.*Group`) });
    await group.waitFor();
    expect(await dialog.getByText(cabal).count()).toBe(0);
    await box.fill(`chess`);
    await dialog.getByRole('button', { name: new RegExp(`${club}.*Group`) }).waitFor();
    expect(await dialog.getByText(cabal).count()).toBe(0);

    // The tag with its count as Bilal may see it (not Chen's, not the cabal's).
    await box.fill(`#${tag}`);
    const tagResult = dialog.getByRole('button', { name: new RegExp(`#${tag}.*3 posts.*Tag`) });
    await tagResult.waitFor();
    expect(await dialog.locator('.search-result').first().innerText()).toContain(`#${tag}`);
    findings.push(...(await axeAllVariants(page, 'search-tags-groups')));
    await shootAll(page, 'tags-search-results', NARROW);

    // By keyboard: down to the tag, Enter opens its page.
    await box.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(`#${tag}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/tags/${tag}`);
    await page.getByRole('heading', { level: 1, name: `#${tag}` }).waitFor();

    // And the group's result opens the group.
    await page.getByRole('searchbox', { name: /^Search/ }).first().click();
    await dialog.getByRole('searchbox').fill(club);
    await dialog.getByRole('button', { name: new RegExp(`${club}.*Group`) }).click();
    await page.waitForURL(`**/g/${ids.club}`);
  });

  it('an empty tag page says so; axe found nothing serious anywhere; no page errors', async () => {
    await page.goto(`/tags/nobody${n}`);
    await page.getByText(`No posts with #nobody${n} yet`).waitFor();
    findings.push(...(await axeAllVariants(page, 'tag-page-empty')));
    await shootAll(page, 'tags-page-empty', NARROW);
    expect(findings, describeFindings(findings)).toEqual([]);
    expect(problems.errors).toEqual([]);
  });
});
