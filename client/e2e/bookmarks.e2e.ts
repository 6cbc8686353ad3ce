// Issue 27, bookmarks and reposts. B saves A's post from the feed: the save
// button is pressed, still after a reload, and the post is in the Saved
// section of B's own Collections tab (nobody else's profile has one). B
// reposts it with a comment through the dialog; C, B's friend, gets the
// "1 new post" pill and then the card "B reposted" with the comment wrapping
// A's post; D reposts too and the repost count on C's screen moves to 2
// live. Screenshots at desktop and 360 px, light and dark; axe finds nothing
// serious on the Saved section, the dialog or the repost card. The reposts
// are undone at the end, so later specs see the feed they expect.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings } from './support/axe';
import { launch, NARROW, newPage, shootAll, type PageProblems } from './support/browser';
import { createStudent, loginUI, type Student } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');
const where = { baseURL, dataDir };

const n = (Date.now() % 900_000) + 100_000;
const person = (name: string, i: number): Student => ({
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}.saved.${n}@uni.test`,
  universityId: `BWU/BCA/24/${n + i}`,
  password: `${name.split(' ')[0]}#2025sv`,
});
const userA = person('Ira Sen', 0);
const userB = person('Omar Khan', 1);
const userC = person('Pia Roy', 2);
const userD = person('Ravi Nair', 3);
const COMMENT = 'Everyone in #BCA should read this';

async function userId(token: string): Promise<string> {
  const me = await api<{ user?: { id: string }; id?: string }>(baseURL, 'GET', '/users/me', undefined, token);
  expect(me.status).toBe(200);
  return me.data.user?.id ?? me.data.id ?? '';
}

/** The card of postId that is the post's own (not inside a repost entry). */
function ownCard(page: Page, postId: string) {
  return page.locator(`.feed__list > article[data-post-id="${postId}"]`);
}

describe('bookmarks and reposts', () => {
  let browser: Browser;
  let b: { page: Page; problems: PageProblems };
  let c: { page: Page; problems: PageProblems };
  let tokB = '';
  let tokD = '';
  let idB = '';
  let postId = '';

  beforeAll(async () => {
    browser = await launch();
    b = await newPage(browser, baseURL);
    c = await newPage(browser, baseURL);
    const tokA = (await createStudent(where, userA)).token;
    tokB = (await createStudent(where, userB)).token;
    const tokC = (await createStudent(where, userC)).token;
    tokD = (await createStudent(where, userD)).token;
    idB = await userId(tokB);
    const req = await api<{ friendRequest: { id: string } }>(baseURL, 'POST', '/friends/send-request', { receiverId: await userId(tokC) }, tokB);
    expect(req.status).toBe(201);
    expect((await api(baseURL, 'PATCH', `/friends/accept-request/${req.data.friendRequest.id}`, undefined, tokC)).status).toBe(200);
    const res = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: 'The library stays open until midnight during exams', visibility: 'public' }, tokA);
    expect(res.status).toBe(201);
    postId = res.data.post.id;
  });

  afterAll(async () => {
    for (const tok of [tokB, tokD]) if (tok && postId) await api(baseURL, 'DELETE', `/posts/${postId}/repost`, undefined, tok);
    await browser?.close();
  });

  it('B saves the post; it stays saved after a reload and is in the Saved section of B’s Collections', async () => {
    const page = b.page;
    await loginUI(page, userB);
    const card = ownCard(page, postId);
    await card.waitFor();
    const save = card.getByRole('button', { name: 'Save', exact: true });
    expect(await save.getAttribute('aria-pressed')).toBe('false');
    await save.click();
    await card.getByRole('button', { name: 'Saved', exact: true }).waitFor();

    await page.reload();
    await ownCard(page, postId).getByRole('button', { name: 'Saved', exact: true }).waitFor();
    expect(await ownCard(page, postId).getByRole('button', { name: 'Saved', exact: true }).getAttribute('aria-pressed')).toBe('true');

    await page.goto(`/profile/${idB}`);
    await page.getByRole('tab', { name: 'Collections' }).click();
    const saved = page.getByRole('region', { name: 'Saved' });
    await saved.locator(`article[data-post-id="${postId}"]`).waitFor();
    await saved.getByText('Only you can see what you save.').waitFor();
    await shootAll(page, '60-collections-saved', NARROW);
    const findings = await axeAllVariants(page, 'own Collections with Saved');
    expect(findings, describeFindings(findings)).toEqual([]);
    expect(b.problems.errors).toEqual([]);
  });

  it('B reposts with a comment; C sees the card live, and the repost count moves when D reposts', async () => {
    const pc = c.page;
    await loginUI(pc, userC);
    await ownCard(pc, postId).waitFor();

    const page = b.page;
    await page.goto('/');
    const card = ownCard(page, postId);
    await card.getByRole('button', { name: 'Repost', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Repost' });
    await dialog.getByLabel('Add a comment (optional)').fill(COMMENT);
    await shootAll(page, '61-repost-dialog', NARROW);
    const dialogFindings = await axeAllVariants(page, 'repost dialog');
    expect(dialogFindings, describeFindings(dialogFindings)).toEqual([]);
    await dialog.getByRole('button', { name: 'Repost', exact: true }).click();
    await page.getByText('Reposted to your feed').waitFor();
    await ownCard(page, postId).getByRole('button', { name: 'Reposted', exact: true }).waitFor();
    expect(await ownCard(page, postId).getByRole('button', { name: 'Reposted', exact: true }).getAttribute('aria-pressed')).toBe('true');

    // C, B's friend: the new-posts pill, then the card wrapping A's post.
    const pill = pc.getByRole('button', { name: '1 new post' });
    await pill.waitFor({ timeout: 15_000 });
    await pill.click();
    const entry = pc.locator('article.post-card--repost').filter({ has: pc.locator(`article[data-post-id="${postId}"]`) }).first();
    await entry.waitFor();
    expect((await entry.locator('.post-card__reposted').textContent())?.replace(/\s+/g, ' ')).toContain(`${userB.name} reposted`);
    await entry.getByText('Everyone in').waitFor();
    // Rich text like a post's: the tag is a link.
    expect(await entry.locator('.post-card__repost-comment a').filter({ hasText: '#BCA' }).count()).toBe(1);
    await entry.locator('[data-testid="reposts-count"]').filter({ hasText: '1' }).waitFor();

    // D reposts through the API: the count on C's screen moves live.
    const res = await api<{ repostsCount: number }>(baseURL, 'POST', `/posts/${postId}/repost`, { comment: '' }, tokD);
    expect(res.status).toBe(200);
    expect(res.data.repostsCount).toBe(2);
    await entry.locator('[data-testid="reposts-count"]').filter({ hasText: '2' }).waitFor({ timeout: 15_000 });
    await pc.evaluate(() => window.scrollTo(0, 0));
    await shootAll(pc, '62-feed-repost-card', NARROW);
    const feedFindings = await axeAllVariants(pc, 'feed with a repost card');
    expect(feedFindings, describeFindings(feedFindings)).toEqual([]);
    expect(c.problems.errors).toEqual([]);
  });

  it('B undoes the repost from the original’s card; the count goes back down', async () => {
    const page = b.page;
    const card = ownCard(page, postId);
    await card.getByRole('button', { name: 'Reposted', exact: true }).click();
    await page.getByText('Repost removed').waitFor();
    await card.getByRole('button', { name: 'Repost', exact: true }).waitFor();
    await card.locator('[data-testid="reposts-count"]').filter({ hasText: '1' }).waitFor({ timeout: 15_000 });
    expect(b.problems.errors).toEqual([]);
  });
});
