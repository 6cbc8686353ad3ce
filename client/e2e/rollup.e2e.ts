// Issue 13, item 4: like notifications roll up. Two people like A's post; A's
// bell counts one notification and the panel shows one row reading
// "<newest> and <other> liked your post" with the post's text. A reads it,
// a third person likes the post while the panel is open: the same row is
// updated in place ("<newest> and 2 others liked your post"), unread again,
// and the badge says 1 — still one row, never one per like.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { launch, newPage, shootAll } from './support/browser';
import { createStudent, loginUI, type Student } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const student = (name: string, i: number): Student => ({
  name,
  email: `${name.toLowerCase().split(' ')[0]}.rollup.${n}@uni.test`,
  universityId: `BWU/BCA/22/${n + i}`,
  password: `${name.split(' ')[0]}#2025roll`,
});
const author = student('Asha Verma', 0);
const likers = [student('Bo Chen', 1), student('Cara Singh', 2), student('Dev Patel', 3)];

async function like(postId: string, token: string): Promise<void> {
  const res = await api<{ isLiked: boolean }>(baseURL, 'POST', `/posts/${postId}/like`, undefined, token);
  expect(res.status).toBe(200);
  expect(res.data.isLiked).toBe(true);
}

describe('like notifications roll up', () => {
  let browser: Browser;
  let page: Page;
  let postId = '';
  const tokens: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    ({ page } = await newPage(browser, baseURL));
    const { token: authorToken } = await createStudent({ baseURL, dataDir }, author);
    for (const l of likers) tokens.push((await createStudent({ baseURL, dataDir }, l)).token);
    const post = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: 'Robotics club demo at 5 pm in the quad' }, authorToken);
    expect(post.status).toBe(201);
    postId = post.data.post.id;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('two likes are one notification: "<newest> and <other> liked your post"', async () => {
    await loginUI(page, author);

    await like(postId, tokens[0]!);
    // The first like's push arrives live: one unread.
    await page.getByRole('button', { name: 'Notifications 1 unread' }).waitFor({ timeout: 15_000 });
    await like(postId, tokens[1]!);

    await page.getByRole('button', { name: 'Notifications 1 unread' }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const row = panel.locator('li.notification', { hasText: `${likers[1]!.name} and ${likers[0]!.name} liked your post` });
    await row.waitFor({ timeout: 15_000 });
    expect(await panel.locator('li.notification').count()).toBe(1);
    await row.getByText('“Robotics club demo at 5 pm in the quad”').waitFor();
    expect(await row.getAttribute('class')).toContain('is-unread');
    expect(await page.locator('.top-bar__badge').textContent()).toBe('1');
    await shootAll(page, '50-notifications-rolled-up');
  });

  it('read, then a third like: the same row, unread again, "<newest> and 2 others"', async () => {
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    expect(await panel.locator('li.notification.is-unread').count()).toBe(0);

    await like(postId, tokens[2]!);
    const row = panel.locator('li.notification.is-unread', { hasText: `${likers[2]!.name} and 2 others liked your post` });
    await row.waitFor({ timeout: 15_000 });
    expect(await panel.locator('li.notification').count()).toBe(1);
    await page.getByRole('button', { name: 'Notifications 1 unread' }).waitFor();

    // The list from the server agrees after a reload.
    await page.reload();
    await page.getByRole('button', { name: 'Notifications 1 unread' }).click();
    await panel.locator('li.notification', { hasText: `${likers[2]!.name} and 2 others liked your post` }).waitFor();
    expect(await panel.locator('li.notification').count()).toBe(1);
    await shootAll(page, '51-notifications-rolled-up-again');
  });
});
