// The user flow against a real server and real Postgres: sign up as a
// student with the e-mailed code, set up a profile with a picture, skip
// suggestions, land on the feed, post text with 2 images, like, comment, copy
// the link, delete; log in as faculty in a second browser that sees the like
// count change live; forgot password with reset. Screenshots of every screen.
//
// Steps whose server routes are not there yet are skipped with a note (the
// backend is being built in parallel); set E2E_REQUIRE_ALL=1 to fail instead.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, hasRoute } from './support/api';
import { launch, newPage, shootAll, type PageProblems } from './support/browser';
import { writePng } from './support/images';
import { waitForCode } from './support/mail';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');
const requireAll = process.env.E2E_REQUIRE_ALL === '1';

const n = Date.now() % 1_000_000;
const student = {
  name: 'Asha Rao',
  email: `asha.${n}@uni.test`,
  universityId: `BWU/BCA/20/${n}`,
  program: 'BCA',
  batch: '2020',
  password: 'Campus#2025',
};
const faculty = { name: 'Dr Meera Iyer', email: `meera.${n}@uni.test`, department: 'Physics', password: 'Faculty#2025' };

interface Routes {
  avatar: boolean;
  cover: boolean;
  setup: boolean;
  feed: boolean;
  posts: boolean;
}

function skipUnless(ok: boolean, note: string, ctx: { skip: (note?: string) => void }) {
  if (ok) return;
  if (requireAll) throw new Error(note);
  console.warn(`e2e: skipped: ${note}`);
  ctx.skip(note);
}

async function likesCount(page: Page, postId: string): Promise<string> {
  return (await page.locator(`article[data-post-id="${postId}"] [data-testid="likes-count"]`).textContent()) ?? '';
}

/**
 * Waits until the post's card shows expected in its count (likes-count or
 * comments-count): counts also move with the live frames, which may bring
 * an older figure a moment after the answer that set it.
 */
async function waitCount(page: Page, postId: string, count: 'likes-count' | 'comments-count', expected: string): Promise<void> {
  await page.waitForFunction(
    ([id, testId, want]) => document.querySelector(`article[data-post-id="${id}"] [data-testid="${testId}"]`)?.textContent === want,
    [postId, count, expected] as const,
    { timeout: 15_000 },
  );
}

describe('the issue flow', () => {
  let browser: Browser;
  let a: { context: BrowserContext; page: Page; problems: PageProblems };
  let b: { context: BrowserContext; page: Page; problems: PageProblems } | undefined;
  let routes: Routes;
  let lastMail = '';
  let postId = '';
  const files = mkdtempSync(join(tmpdir(), 'campus-e2e-files-'));
  const avatarPng = writePng(files, 'avatar.png', 256, 256, [47, 91, 234], [194, 37, 92]);
  const coverPng = writePng(files, 'cover.png', 1200, 400, [12, 133, 153], [112, 72, 232]);
  const photo1 = writePng(files, 'photo-1.png', 800, 600, [43, 138, 62], [240, 179, 74]);
  const photo2 = writePng(files, 'photo-2.png', 600, 800, [217, 72, 15], [59, 91, 219]);

  beforeAll(async () => {
    browser = await launch();
    a = await newPage(browser, baseURL);
    routes = {
      avatar: await hasRoute(baseURL, 'POST', '/profile/avatar'),
      cover: await hasRoute(baseURL, 'POST', '/profile/cover'),
      setup: await hasRoute(baseURL, 'POST', '/profile/setup'),
      feed: await hasRoute(baseURL, 'GET', '/posts/feed'),
      posts: await hasRoute(baseURL, 'POST', '/posts'),
    };
    console.log('e2e: server routes', routes);
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('signs up as a student and verifies with the e-mailed code', async () => {
    const { page } = a;
    await page.goto('/');
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.getByLabel('Full name').fill(student.name);
    await page.getByLabel('Email', { exact: true }).fill(student.email);
    await page.getByLabel('University ID').fill(student.universityId.toLowerCase());
    await page.getByLabel('Program').fill(student.program);
    await page.getByLabel('Batch').fill(student.batch);
    await page.getByLabel('Password', { exact: true }).fill(student.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(student.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await page.getByText('The code expires in 10 minutes.').waitFor();
    expect(await page.getByRole('button', { name: /Resend Code \(\d+s\)/ }).isDisabled()).toBe(true);
    await shootAll(page, '10-verify-email');

    const { code, name } = await waitForCode(dataDir, student.email);
    lastMail = name;
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await page.getByRole('heading', { name: 'Add a profile picture' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please upload a profile picture').waitFor();
    await shootAll(page, '11-profile-setup-picture');
  });

  it('sets up the profile with a picture, skips suggestions and lands on the feed', async () => {
    const { page } = a;
    if (routes.avatar) {
      await page.getByTestId('avatar-input').setInputFiles(avatarPng);
      await page.getByText('Change photo').waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Finish your profile' }).waitFor();
      if (routes.cover) {
        await page.getByTestId('cover-input').setInputFiles(coverPng);
        await page.getByAltText('Your cover photo').waitFor();
      }
      await page.getByLabel('Bio').fill('Second-year BCA. Robotics club, chai and chess.');
      await shootAll(page, '12-profile-setup-details');
      await page.getByRole('button', { name: 'Complete Profile' }).click();
    } else {
      const note = 'server has no POST /api/profile/avatar yet: took "Skip profile setup"';
      if (requireAll) throw new Error(note);
      console.warn(`e2e: ${note}`);
      await page.getByRole('button', { name: 'Skip profile setup' }).click();
    }

    await page.getByRole('heading', { name: 'Find People You Know' }).waitFor();
    await shootAll(page, '13-find-people');
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    if (routes.feed) await page.getByText('Welcome to Campus!').waitFor();
    await shootAll(page, '14-feed-empty');
    expect(routes.setup || !requireAll).toBe(true);
  });

  it('posts text with 2 images', async (ctx) => {
    skipUnless(routes.posts && routes.feed, 'the server has no posts API yet', ctx);
    const { page } = a;
    await page.getByRole('button', { name: /What's on your mind/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Create post' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Post' }).isDisabled()).toBe(true);
    await dialog.getByText(student.universityId).waitFor();
    await dialog.getByLabel('Post text').fill('Robotics club demo day on Friday! Come see the line-follower race.');
    await page.getByTestId('post-images-input').setInputFiles([photo1, photo2]);
    await dialog.getByRole('img', { name: 'Selected image 2' }).waitFor();
    await shootAll(page, '15-create-post');
    await dialog.getByRole('button', { name: 'Post' }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.locator('article', { hasText: 'Robotics club demo day' });
    await card.waitFor();
    postId = (await card.getAttribute('data-post-id')) ?? '';
    expect(postId).not.toBe('');
    expect(await card.locator('.carousel__slide').count()).toBe(2);
    await shootAll(page, '16-feed-with-post');
  });

  it('logs in as faculty in a second browser, which sees the like count change live', async (ctx) => {
    skipUnless(postId !== '', 'no post was created in the previous step', ctx);
    const signup = await api(baseURL, 'POST', '/auth/signup', {
      name: faculty.name,
      email: faculty.email,
      password: faculty.password,
      role: 'faculty',
      collegeId: faculty.department,
      department: faculty.department,
    });
    expect(signup.status).toBe(201);
    const { code } = await waitForCode(dataDir, faculty.email);
    expect((await api(baseURL, 'POST', '/auth/verify-otp', { email: faculty.email, otp: code })).status).toBe(200);

    b = await newPage(browser, baseURL);
    const pb = b.page;
    await pb.goto('/');
    await pb.getByRole('radio', { name: 'Faculty' }).check();
    await pb.getByLabel('Email or university ID').fill(faculty.email);
    await pb.getByLabel('Password', { exact: true }).fill(faculty.password);
    await pb.getByRole('button', { name: 'Sign In' }).click();
    await pb.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await shootAll(pb, '17-faculty-feed');

    // The shared link, opened fresh (deep link on reload).
    await pb.goto(`/post/${postId}`);
    await pb.locator(`article[data-post-id="${postId}"]`).waitFor();
    expect(await likesCount(pb, postId)).toBe('0');
    await pb.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    // Give the socket time to connect and watch the post.
    await pb.waitForTimeout(1500);
    const cardA = a.page.locator(`article[data-post-id="${postId}"]`);
    await cardA.getByRole('button', { name: 'Like', exact: true }).click();
    await waitCount(a.page, postId, 'likes-count', '1');
    expect(await cardA.getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    await waitCount(pb, postId, 'likes-count', '1');

    await pb.locator(`article[data-post-id="${postId}"]`).getByRole('button', { name: 'Like', exact: true }).click();
    await waitCount(pb, postId, 'likes-count', '2');
    await waitCount(a.page, postId, 'likes-count', '2');
    expect(await pb.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await shootAll(pb, '18-post-page');
  });

  it('comments, and the other browser sees the count', async (ctx) => {
    skipUnless(postId !== '', 'no post was created in an earlier step', ctx);
    const cardA = a.page.locator(`article[data-post-id="${postId}"]`);
    await cardA.getByRole('button', { name: 'Comment', exact: true }).click();
    await cardA.getByLabel('Write a comment').fill('Count me in!');
    await cardA.getByRole('button', { name: 'Send' }).click();
    await cardA.getByText('Count me in!').waitFor();
    await waitCount(a.page, postId, 'comments-count', '1');
    if (b) {
      const cardB = b.page.locator(`article[data-post-id="${postId}"]`);
      await cardB.getByText('Count me in!').waitFor({ timeout: 15_000 });
      await waitCount(b.page, postId, 'comments-count', '1');
    }
    await shootAll(a.page, '19-comments');
  });

  it('copies the post link from the menu and from Share', async (ctx) => {
    skipUnless(postId !== '', 'no post was created in an earlier step', ctx);
    const { page } = a;
    const card = page.locator(`article[data-post-id="${postId}"]`);
    await card.getByRole('button', { name: 'Post options' }).click();
    await shootAll(page, '20-post-menu');
    await card.getByRole('menuitem', { name: 'Copy link' }).click();
    await page.getByText('Link copied to clipboard!').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/post/${postId}`);

    // Chromium on Linux has no navigator.share: Share copies the link.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await card.getByRole('button', { name: 'Share', exact: true }).click();
    await card.getByRole('button', { name: 'Copied!' }).waitFor();
    await card.getByRole('tooltip').filter({ hasText: 'Link copied to clipboard!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/post/${postId}`);
    await card.getByRole('button', { name: 'Share', exact: true }).waitFor({ timeout: 4000 }); // reverts after 2 s
  });

  it('deletes the post, and it disappears in the other browser', async (ctx) => {
    skipUnless(postId !== '', 'no post was created in an earlier step', ctx);
    const { page } = a;
    const card = page.locator(`article[data-post-id="${postId}"]`);
    await card.getByRole('button', { name: 'Post options' }).click();
    await card.getByRole('menuitem', { name: 'Delete post' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete post?' });
    await shootAll(page, '21-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await card.waitFor({ state: 'detached' });
    if (b) await b.page.getByText('This post was deleted').waitFor({ timeout: 15_000 });
  });

  it('top bar, avatar menu, navigation and Back', async () => {
    const { page } = a;
    await page.goto('/');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu', { name: 'Account' }).waitFor();
    await shootAll(page, '22-avatar-menu');
    await page.getByRole('menuitem', { name: /Display & accessibility/ }).click();
    await page.getByText('Dark mode').first().waitFor();
    await shootAll(page, '23-display-menu');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Friends', exact: true }).first().click();
    await page.waitForURL('**/friends');
    await page.getByRole('heading', { name: 'Friends', level: 1 }).waitFor();
    await shootAll(page, '24-friends');
    await page.goBack();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Settings & privacy/ }).click();
    await page.getByRole('heading', { name: 'Settings & Privacy' }).waitFor();
    await shootAll(page, '25-settings');
    await page.reload();
    await page.getByRole('heading', { name: 'Settings & Privacy' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();

    await page.getByRole('searchbox', { name: 'Search Campus' }).first().click();
    const search = page.getByRole('dialog', { name: 'Search' });
    await search.getByRole('searchbox', { name: 'Search Campus' }).waitFor();
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Notifications/ }).click();
    // The like and comment of the faculty user may have been cleared with the post: either state is fine here.
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.locator('.notifications-panel__list, .empty-state').first().waitFor();
    await shootAll(page, '26-notifications');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Log Out/ }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  });

  it('resets a forgotten password with the e-mailed code', async () => {
    const c = await newPage(browser, baseURL);
    const { page } = c;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email or university ID').fill(student.universityId);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await page.getByRole('heading', { name: 'Reset password' }).waitFor();

    const { code } = await waitForCode(dataDir, student.email, { after: lastMail });
    await page.getByLabel('OTP').fill(code);
    await page.getByLabel('New password', { exact: true }).fill('weakpass');
    await page.getByLabel('Confirm new password', { exact: true }).fill('weakpass');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password is too weak.', { exact: false }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('NewPass#2026');
    await page.getByLabel('Confirm new password', { exact: true }).fill('NewPass#2026');
    await shootAll(page, '27-reset-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password Reset Successful!').first().waitFor();

    // After 2 s: back at login with the identifier filled in.
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor({ timeout: 5000 });
    expect(await page.getByLabel('Email or university ID').inputValue()).toBe(student.universityId);
    await page.getByLabel('Password', { exact: true }).fill('NewPass#2026');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await c.context.close();
  });

  it('logged no CSP violations', () => {
    const csp = [...a.problems.errors, ...(b?.problems.errors ?? [])].filter((e) => /Content Security Policy|Refused to/i.test(e));
    expect(csp).toEqual([]);
    const other = [...a.problems.errors, ...(b?.problems.errors ?? [])].filter((e) => !csp.includes(e));
    if (other.length > 0) console.warn('e2e: console errors seen:\n' + other.join('\n'));
  });
});
