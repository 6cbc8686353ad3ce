// Issue 18 in Chromium on a real server: A creates a closed group; B asks to
// join and A approves; B posts in it and A sees the post, on the group's
// page and in the home feed; C, not a member, sees the group's about page but
// never its post (page, feed, post page). The event big screen shows the
// pinned post and a count moving while B likes in another browser.
// Screenshots of the directory, the group page and the big screen, light and
// dark, desktop and mobile.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { launch, newPage, shootAll, type PageProblems } from './support/browser';
import { createStudent, loginUI, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const person = (first: string, last: string, i: number) => ({
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.g${n}@uni.test`,
  universityId: `BWU/BCA/22/${n + i}`,
  password: `${first}#2025x`,
});
const asha = person('Asha', 'Rao', 0);
const bikram = person('Bikram', 'Sen', 1);
const chitra = person('Chitra', 'Iyer', 2);
const clubName = `Robotics ${n}`;
const clubHandle = `robotics-${n}`;
const bPost = `Servo tuning tonight in lab 3 ${n}`;

type Browsing = { page: Page; problems: PageProblems };

function postCard(page: Page, text: string) {
  return page.locator('article.post-card', { hasText: text });
}

async function openGroup(page: Page, handle: string, name: string): Promise<void> {
  await page.goto(`/g/${handle}`);
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

describe('groups (issue 18)', () => {
  let browser: Browser;
  let a: Browsing;
  let b: Browsing;
  let c: Browsing;
  let tokens: Record<string, Session> = {};
  let postId = '';

  beforeAll(async () => {
    browser = await launch();
    tokens = {};
    for (const u of [asha, bikram, chitra]) tokens[u.email] = await createStudent({ baseURL, dataDir }, u);
    [a, b, c] = await Promise.all([newPage(browser, baseURL), newPage(browser, baseURL), newPage(browser, baseURL)]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('A creates a closed group, B asks to join, A approves, B posts, A sees it; C does not', async () => {
    // A creates the club from the directory.
    await loginUI(a.page, asha);
    await a.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Groups' }).click();
    await a.page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
    await a.page.getByRole('button', { name: 'Create group' }).click();
    const form = a.page.getByRole('dialog', { name: 'Create group' });
    await form.getByLabel('Name').fill(clubName);
    expect(await form.getByLabel('Handle').inputValue()).toBe(clubHandle); // proposed from the name
    await form.getByLabel('Description').fill('We build small robots and break them.');
    await form.getByLabel('Kind').selectOption('club');
    await form.getByRole('radio', { name: /Closed/ }).check();
    await form.getByRole('button', { name: 'Create group' }).click();
    await a.page.waitForURL((u) => u.pathname === `/g/${clubHandle}`);
    await a.page.getByRole('heading', { name: clubName, level: 1 }).waitFor();
    expect(await a.page.getByText('Closed club · 1 member').count()).toBe(1);

    // B finds it closed: the about page, no posts; asks to join.
    await loginUI(b.page, bikram);
    await openGroup(b.page, clubHandle, clubName);
    await b.page.getByText('This group is closed').waitFor();
    await b.page.getByRole('button', { name: 'Request to join' }).first().click();
    await b.page.getByText('Your request to join is waiting for an admin.').waitFor();

    // A approves from the Requests tab.
    await a.page.reload();
    await a.page.getByRole('tab', { name: 'Requests' }).click();
    await a.page.getByRole('button', { name: `Approve ${bikram.name}` }).click();
    await a.page.getByText('No one is waiting to join.').waitFor();

    // B is a member now: posts in the group.
    await b.page.reload();
    await b.page.getByRole('button', { name: 'Leave group' }).waitFor();
    await b.page.getByRole('button', { name: /What's on your mind/ }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Create post' });
    await dialog.getByText(`Posting in ${clubName}`).waitFor();
    await dialog.getByLabel('Post text').fill(bPost);
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await postCard(b.page, bPost).waitFor();
    postId = (await postCard(b.page, bPost).getAttribute('data-post-id')) ?? '';
    expect(postId).not.toBe('');

    // A sees it on the group's page, and in the home feed with the group's name.
    await openGroup(a.page, clubHandle, clubName);
    await postCard(a.page, bPost).waitFor();
    await shootAll(a.page, 'group-page');
    await a.page.goto('/');
    const inFeed = postCard(a.page, bPost);
    await inFeed.waitFor();
    await inFeed.getByRole('link', { name: new RegExp(clubName) }).waitFor();

    // C: the about page, never the post — not on the page, not in the feed, not by its link.
    await loginUI(c.page, chitra);
    await openGroup(c.page, clubHandle, clubName);
    await c.page.getByText('This group is closed').waitFor();
    await c.page.getByRole('tab', { name: 'About' }).click();
    await c.page.getByText('We build small robots and break them.').waitFor();
    expect(await postCard(c.page, bPost).count()).toBe(0);
    await c.page.goto('/');
    await c.page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    expect(await postCard(c.page, bPost).count()).toBe(0);
    await c.page.goto(`/post/${postId}`);
    await c.page.getByText('Post not found').waitFor();
    const direct = await api(baseURL, 'GET', `/posts/${postId}`, undefined, tokens[chitra.email]!.token);
    expect([403, 404]).toContain(direct.status);

    // The directory, as A sees it: the club under "Your groups".
    await a.page.goto('/groups');
    await a.page.getByRole('list', { name: 'Your groups' }).getByRole('link', { name: clubName }).waitFor();
    await shootAll(a.page, 'groups-directory');

    for (const s of [a, b, c]) expect(s.problems.errors).toEqual([]);
  });

  it('the event big screen shows the pinned post and a count moving while B likes', async () => {
    const tokA = tokens[asha.email]!.token;
    const tokB = tokens[bikram.email]!.token;
    const handle = `fest-${n}`;
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    const made = await api<{ id: string }>(
      baseURL,
      'POST',
      '/groups',
      { name: `Tech Fest ${n}`, handle, kind: 'event', visibility: 'public', description: 'The big one', startsAt: start, endsAt: end },
      tokA,
    );
    expect(made.status, made.message).toBe(201);
    const welcome = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: `Welcome to Tech Fest ${n}!`, visibility: 'public', groupId: made.data.id }, tokA);
    expect(welcome.status, welcome.message).toBe(201);
    const hot = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content: `Robot sumo finals at 4 ${n}`, visibility: 'public', groupId: made.data.id }, tokA);
    expect(hot.status, hot.message).toBe(201);
    expect((await api(baseURL, 'PUT', `/groups/${handle}/pin`, { postId: welcome.data.post.id }, tokA)).status).toBe(200);
    expect((await api(baseURL, 'POST', `/groups/${handle}/join`, undefined, tokB)).status).toBe(200);

    // A puts the big screen up.
    await a.page.goto(`/g/${handle}/live`);
    await a.page.getByRole('heading', { name: `Tech Fest ${n}`, level: 1 }).waitFor();
    expect(await a.page.locator('.top-bar').count()).toBe(0); // no chrome
    const pinned = a.page.getByRole('article', { name: 'Pinned post' });
    await pinned.getByText(`Welcome to Tech Fest ${n}!`).waitFor();
    const hotCard = a.page.locator(`article.live-post[data-post-id="${hot.data.post.id}"]`);
    await hotCard.waitFor();
    expect(await hotCard.getByTestId('live-likes').textContent()).toBe('0');

    // B likes it in another browser: the count moves on the big screen, live.
    await openGroup(b.page, handle, `Tech Fest ${n}`);
    const bCard = b.page.locator(`article.post-card[data-post-id="${hot.data.post.id}"]`);
    await bCard.getByRole('button', { name: 'Like', exact: true }).click();
    await a.page.waitForFunction(
      (id) => document.querySelector(`article.live-post[data-post-id="${id}"] [data-testid="live-likes"]`)?.textContent === '1',
      hot.data.post.id,
      { timeout: 15_000 },
    );
    // And a like by the API (a third client) moves the pinned one too.
    expect((await api(baseURL, 'POST', `/posts/${welcome.data.post.id}/like`, undefined, tokB)).status).toBe(200);
    await pinned.getByTestId('live-likes').filter({ hasText: '1' }).waitFor({ timeout: 15_000 });
    await shootAll(a.page, 'group-live');

    for (const s of [a, b]) expect(s.problems.errors).toEqual([]);
  });

  it('A invites a friend to a secret club, C accepts from the notification and posts; A, following closely, is told live', async () => {
    const tokA = tokens[asha.email]!.token;
    const cId = tokens[chitra.email]!.user.id;
    const sent = await api<{ friendRequest: { id: string } }>(baseURL, 'POST', '/friends/send-request', { receiverId: cId }, tokA);
    expect(sent.status, sent.message).toBe(201);
    expect((await api(baseURL, 'PATCH', `/friends/accept-request/${sent.data.friendRequest.id}`, undefined, tokens[chitra.email]!.token)).status).toBe(200);
    const name = `Secret ${n}`;
    const handle = `secret-${n}`;
    const made = await api(baseURL, 'POST', '/groups', { name, handle, kind: 'club', visibility: 'secret' }, tokA);
    expect(made.status, made.message).toBe(201);

    // Before the invitation, the secret club does not exist for C.
    await c.page.goto(`/g/${handle}`);
    await c.page.getByRole('heading', { name: 'Group not found' }).waitFor();

    // A follows the club closely and invites C from the dialog.
    await openGroup(a.page, handle, name);
    const follow = a.page.getByRole('switch', { name: 'Notify me of every post' });
    await follow.click();
    await a.page.waitForFunction(() => document.querySelector('[role="switch"]')?.getAttribute('aria-checked') === 'true');
    await a.page.getByRole('button', { name: 'Invite', exact: true }).click();
    const invite = a.page.getByRole('dialog', { name: `Invite friends to ${name}` });
    await invite.getByRole('button', { name: `Invite ${chitra.name}` }).click();
    await invite.getByText('Invited').waitFor();
    await a.page.keyboard.press('Escape');
    // A keeps the notifications open: what comes next arrives over the socket.
    await a.page.getByRole('button', { name: /^Notifications/ }).click();
    const aPanel = a.page.getByRole('dialog', { name: 'Notifications' });
    await aPanel.waitFor();

    // C is told live, accepts in the row, and opens the club from it.
    await c.page.goto('/');
    await c.page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await c.page.getByRole('button', { name: /^Notifications 1 unread/ }).click();
    const cPanel = c.page.getByRole('dialog', { name: 'Notifications' });
    await cPanel.getByText(`${asha.name} invited you to join ${name}`).waitFor();
    await cPanel.getByRole('button', { name: `Accept invitation to ${name}` }).click();
    await cPanel.getByText('Joined').waitFor();
    await cPanel.getByText(`${asha.name} invited you to join ${name}`).click();
    await c.page.waitForURL((u) => u.pathname === `/g/${handle}`);
    await c.page.getByRole('button', { name: 'Leave group' }).waitFor();

    // C posts; A's open panel gets the group_post notification live and opens the post.
    const cPost = `Meet at the old library, 9 pm ${n}`;
    await c.page.getByRole('button', { name: /What's on your mind/ }).click();
    const dialog = c.page.getByRole('dialog', { name: 'Create post' });
    await dialog.getByLabel('Post text').fill(cPost);
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await postCard(c.page, cPost).waitFor();
    const row = aPanel.getByText(`${chitra.name} posted in ${name}`);
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    await a.page.waitForURL((u) => u.pathname.startsWith('/post/'));
    await postCard(a.page, cPost).waitFor();

    for (const s of [a, c]) expect(s.problems.errors).toEqual([]);
  });
});
