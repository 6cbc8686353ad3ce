// Issue 9's flow, two users in two browsers on a real server: B signs up and
// follows A on "Find People You Know"; A finds B through search, opens the
// profile and connects; B's Friends button turns red and a notification
// arrives live; B accepts from the notification; both see each other under
// Friends; A likes B's profile, then unfriends; A edits the profile (skills,
// achievements, interests) and sees it in About after a reload; A changes
// e-mail and password through the code flow and logs in with the new ones;
// A deletes the account and can no longer log in. Screenshots of every screen.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, hasRoute } from './support/api';
import { launch, newPage, shootAll, type PageProblems } from './support/browser';
import { writePng } from './support/images';
import { newestMessage, waitForCode } from './support/mail';
import { signUp } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');
const requireAll = process.env.E2E_REQUIRE_ALL === '1';

const n = (Date.now() % 900_000) + 100_000;
const userA = {
  name: 'Kiran Mehta',
  email: `kiran.${n}@uni.test`,
  universityId: `BWU/BSC/21/${n}`,
  program: 'BSC',
  batch: '2021',
  password: 'Kiran#2025',
};
const userB = {
  name: 'Nila Das',
  email: `nila.${n}@uni.test`,
  universityId: `BWU/BSC/21/${n + 1}`,
  program: 'BSC',
  batch: '2021',
  password: 'Nila#2025x',
};
const newEmail = `kiran.new.${n}@uni.test`;
const newPassword = 'Kiran#2026new';

type Session = { context: BrowserContext; page: Page; problems: PageProblems };

async function loginUI(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email or university ID').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function idOf(u: { email: string; password: string }): Promise<string> {
  const res = await api<{ user: { id: string } }>(baseURL, 'POST', '/auth/login', { email: u.email, password: u.password, role: 'student' });
  expect(res.status).toBe(200);
  return res.data.user.id;
}

/** The newest mail file name for an address (so a later wait skips older codes). */
function lastMailName(address: string): string {
  return newestMessage(dataDir, address)?.name ?? '';
}

describe('profiles, friends, notifications, search and settings', () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let bId = '';
  let searchRoute = false;
  const files = mkdtempSync(join(tmpdir(), 'campus-e2e-social-'));
  const avatarPng = writePng(files, 'kiran.png', 256, 256, [17, 153, 142], [56, 239, 125]);
  const coverPng = writePng(files, 'kiran-cover.png', 1200, 400, [252, 74, 26], [247, 183, 51]);
  const photoPng = writePng(files, 'lab.png', 800, 600, [72, 85, 99], [41, 50, 60]);

  beforeAll(async () => {
    browser = await launch();
    [a, b] = await Promise.all([newPage(browser, baseURL), newPage(browser, baseURL)]);
    searchRoute = await hasRoute(baseURL, 'GET', '/search?q=ab');
    await signUp({ baseURL, dataDir }, userA);
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('B signs up and follows A on "Find People You Know" (real suggestions)', async () => {
    const { page } = b;
    await page.goto('/');
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.getByLabel('Full name').fill(userB.name);
    await page.getByLabel('Email', { exact: true }).fill(userB.email);
    await page.getByLabel('University ID').fill(userB.universityId);
    await page.getByLabel('Program').fill(userB.program);
    await page.getByLabel('Batch').fill(userB.batch);
    await page.getByLabel('Password', { exact: true }).fill(userB.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(userB.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const { code } = await waitForCode(dataDir, userB.email);
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await page.getByRole('button', { name: 'Skip profile setup' }).click();

    await page.getByRole('heading', { name: 'Find People You Know' }).waitFor();
    const card = page.getByRole('button', { name: new RegExp(userA.name) });
    await card.waitFor({ timeout: 15_000 });
    await page.getByLabel('Search suggestions by name, ID or role').fill('kiran');
    await card.click();
    expect(await card.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Follow 1 Person' }).waitFor();
    await shootAll(page, '30-find-people-selected');
    await page.getByRole('button', { name: 'Follow 1 Person' }).click();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    bId = await idOf(userB);
  });

  it('A finds B through search and opens the profile', async () => {
    const { page } = a;
    await loginUI(page, userA.email, userA.password);
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await page.getByRole('searchbox', { name: 'Search Campus' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    const box = dialog.getByRole('searchbox', { name: 'Search Campus' });
    await box.waitFor();
    expect(await box.getAttribute('placeholder')).toBe('Search Campus...');

    if (!searchRoute) {
      const note = 'the server has no GET /api/search yet: opened the profile by its URL';
      if (requireAll) throw new Error(note);
      console.warn(`e2e: skipped: ${note}`);
      await page.keyboard.press('Escape');
      await page.goto(`/profile/${bId}`);
      return;
    }
    // The search index follows the database a moment behind: wait until it knows B.
    const login = await api<{ token: string }>(baseURL, 'POST', '/auth/login', { email: userA.email, password: userA.password, role: 'student' });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await api<{ results: Array<{ id: string }> }>(baseURL, 'GET', '/search?q=Nila&limit=20', undefined, login.data.token);
      if (res.data?.results?.some((r) => r.id === bId)) break;
      if (Date.now() > deadline) throw new Error('B never appeared in search');
      await new Promise((r) => setTimeout(r, 250));
    }
    await box.fill('zzqxv');
    await dialog.getByText('No results found for "zzqxv"').waitFor();
    await shootAll(page, '31-search-no-results');
    await box.fill('Nila');
    const result = dialog.getByRole('button', { name: new RegExp(`${userB.name}.*User`) });
    await result.waitFor();
    await shootAll(page, '32-search-results');
    await result.click();
    await page.waitForURL(`**/profile/${bId}`);
  });

  it('A connects: Connect → Request Sent; B turns red and gets the notification live', async () => {
    const { page } = a;
    if (!page.url().endsWith(`/profile/${bId}`)) await page.goto(`/profile/${bId}`);
    await page.getByRole('heading', { name: userB.name, level: 1 }).waitFor();
    await page.getByText('Student', { exact: true }).first().waitFor();
    await page.getByText(userB.universityId).waitFor();
    await page.locator('.profile-stat', { hasText: 'Year' }).getByText('2021').waitFor();
    const connect = page.getByRole('button', { name: 'Connect', exact: true });
    await connect.waitFor();
    await shootAll(page, '33-profile-other');

    // B is on the feed, with the socket open.
    const pb = b.page;
    await expect(pb.locator('.top-bar__nav-btn.has-pending').count()).resolves.toBe(0);
    await connect.click();
    await page.getByRole('button', { name: 'Request Sent' }).waitFor();
    expect(await page.getByRole('button', { name: 'Request Sent' }).isDisabled()).toBe(true);

    await pb.getByRole('button', { name: 'Friends (pending requests)' }).waitFor({ timeout: 15_000 });
    await pb.getByRole('button', { name: 'Notifications 1 unread' }).waitFor({ timeout: 15_000 });
    expect(await pb.locator('.top-bar__badge').textContent()).toBe('1');
    expect(await pb.locator('.top-bar__bell.is-pulsing').count()).toBe(1);
  });

  it('B accepts from the notification; both see each other under Friends', async () => {
    const pb = b.page;
    await pb.getByRole('button', { name: 'Notifications 1 unread' }).click();
    const panel = pb.getByRole('dialog', { name: 'Notifications' });
    const item = panel.locator('li.notification.is-unread', { hasText: `${userA.name} sent you a friend request` });
    await item.waitFor();
    await panel.getByRole('button', { name: 'Mark all read' }).waitFor();
    await shootAll(pb, '34-notifications-unread');
    await item.getByRole('button', { name: new RegExp(`${userA.name} sent you a friend request`) }).click();
    await pb.waitForURL('**/friends');
    expect(await pb.getByRole('tab', { name: /Requests/ }).getAttribute('aria-selected')).toBe('true');
    await pb.getByRole('button', { name: 'Notifications', exact: true }).waitFor(); // read: the badge is gone
    await pb.getByRole('heading', { name: 'Received Requests' }).waitFor();
    const accept = pb.getByRole('button', { name: `Accept ${userA.name}'s request` });
    await accept.waitFor();
    await shootAll(pb, '35-friends-requests');
    await accept.click();
    await pb.getByText("You don't have any pending friend requests").waitFor();
    await pb.getByRole('button', { name: 'Friends', exact: true }).first().waitFor(); // no longer red

    await pb.getByRole('tab', { name: /^Friends/ }).click();
    await pb.getByRole('button', { name: `View ${userA.name}'s profile` }).waitFor();
    await shootAll(pb, '36-friends-list');

    // A sees it live: the Connect button re-checks on friend:accept.
    const { page } = a;
    await page.getByRole('button', { name: 'Connected' }).waitFor({ timeout: 15_000 });
    await page.locator('.profile-stat', { hasText: 'Friends' }).getByText('1').waitFor();
    await page.goto('/friends');
    await page.getByRole('button', { name: `View ${userB.name}'s profile` }).waitFor();
    await page.getByRole('button', { name: `Options for ${userB.name}` }).click();
    await page.getByRole('menuitem', { name: 'Unfriend' }).waitFor();
    await shootAll(page, '37-friends-menu');
    await page.mouse.click(5, 400); // outside: the menu closes
    await page.getByRole('menuitem', { name: 'Unfriend' }).waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: /Suggestions/ }).click();
    await page.getByRole('heading', { name: 'People you may know' }).waitFor();
    await shootAll(page, '38-friends-suggestions');
  });

  it('A likes B’s profile (kept after a reload), then unfriends', async () => {
    const { page } = a;
    await page.goto(`/profile/${bId}`);
    const likes = page.locator('.profile-stat', { hasText: 'Likes' }).locator('.profile-stat__value');
    await page.getByRole('button', { name: 'Connected' }).waitFor();
    expect(await likes.textContent()).toBe('0');
    await page.getByRole('button', { name: `Like ${userB.name}'s profile` }).click();
    expect(await likes.textContent()).toBe('1');
    await page.waitForTimeout(300);
    await page.reload();
    await page.getByRole('button', { name: `Unlike ${userB.name}'s profile` }).waitFor();
    expect(await likes.textContent()).toBe('1');
    await page.getByRole('tab', { name: 'Friends' }).click();
    await page.getByRole('heading', { name: /^Friends/ }).waitFor();
    await page.getByRole('button', { name: `View ${userA.name}'s profile` }).waitFor();
    await shootAll(page, '39-profile-other-connected');

    await page.getByRole('button', { name: 'Connected' }).click();
    const confirm = page.getByRole('dialog', { name: `Unfriend ${userB.name}?` });
    await confirm.getByRole('button', { name: 'Unfriend' }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    await page.getByText('No friends yet', { exact: true }).waitFor();
    await page.locator('.profile-stat', { hasText: 'Friends' }).getByText('0').waitFor();

    const pb = b.page;
    await pb.reload();
    await pb.getByText('No friends found').waitFor();
  });

  it('A sets pictures, posts a photo and edits the profile; About shows it after a reload', async () => {
    const { page } = a;
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /View your profile/ }).click();
    await page.getByRole('heading', { name: userA.name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();

    await page.getByTestId('profile-cover-input').setInputFiles(coverPng);
    await page.getByAltText(`${userA.name}'s cover photo`).waitFor();
    await page.getByTestId('profile-avatar-input').setInputFiles(avatarPng);
    // The signed-in user is updated at once: the top bar's avatar shows the picture.
    await page.locator('.avatar-menu__trigger img').waitFor();

    await page.getByRole('tab', { name: 'Collections' }).click();
    await page.getByText('No Photos Yet').waitFor();
    await page.getByRole('button', { name: 'Add Photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create post' });
    await dialog.getByLabel('Post text').fill('Lab day!');
    await page.getByTestId('post-images-input').setInputFiles(photoPng);
    await dialog.getByRole('button', { name: 'Post' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open photo 1' }).waitFor();
    await page.locator('.profile-stat', { hasText: 'Memories' }).getByText('1').waitFor();
    await shootAll(page, '40-profile-collections');

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Profile' });
    await edit.getByLabel('Bio').fill('Physics and robotics. Always up for chess.');
    await edit.getByLabel('Degree').fill('B.Sc. Physics');
    await edit.getByLabel('Institution').fill('Brainware University');
    await edit.getByLabel('Years').fill('2021 - 2024');
    await edit.getByLabel('Location').fill('Kolkata');
    await edit.getByRole('button', { name: '+ Add Skill' }).click();
    await edit.getByLabel('Skill 1 name').fill('Robotics');
    // The slider moves with the keyboard like a person would: 50 → 80.
    await edit.getByLabel('Skill 1 proficiency').focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
    await edit.getByRole('button', { name: '+ Add Skill' }).click();
    await edit.getByLabel('Skill 2 name').fill('Python');
    await edit.getByRole('button', { name: '+ Add Achievement' }).click();
    await edit.getByText('Achievement 1', { exact: true }).waitFor();
    await edit.getByLabel('Achievement 1 title').fill('Robotics Cup winner');
    await edit.getByLabel('Achievement 1 description').fill('Line-follower race, inter-college');
    await edit.getByLabel('Achievement 1 year').fill('2023');
    await edit.getByLabel('Hobbies & Interests').fill('Chess, Photography, , Robotics ');
    await shootAll(page, '41-edit-profile');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('Physics and robotics. Always up for chess.').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: userA.name, level: 1 }).waitFor();
    await page.locator('.profile-stat', { hasText: 'Year' }).click(); // the Year tile opens About
    const about = page.getByRole('tabpanel');
    await about.getByText('B.Sc. Physics').waitFor();
    await about.getByText('Brainware University').waitFor();
    await about.getByText('Kolkata').waitFor();
    await about.getByRole('progressbar', { name: 'Robotics proficiency' }).waitFor();
    expect(await about.getByRole('progressbar', { name: 'Robotics proficiency' }).getAttribute('aria-valuenow')).toBe('80');
    expect(await about.getByRole('progressbar', { name: 'Python proficiency' }).getAttribute('aria-valuenow')).toBe('50');
    await about.getByText('Achievements & Awards').waitFor();
    await about.getByText('Robotics Cup winner').waitFor();
    await about.getByText('Line-follower race, inter-college').waitFor();
    expect(await about.locator('.profile-interest').allTextContents()).toEqual(['Chess', 'Photography', 'Robotics']);
    await shootAll(page, '42-profile-about');

    await page.getByRole('tab', { name: 'Memories' }).click();
    await page.locator('article', { hasText: 'Lab day!' }).waitFor();
    await shootAll(page, '43-profile-own');

    await page.goto('/profile/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Profile not found' }).waitFor();
    await shootAll(page, '44-profile-not-found');
  });

  it('A changes e-mail and password through the code flows, then logs in with the new ones', async () => {
    const { page } = a;
    await page.goto('/');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Settings & privacy/ }).click();
    await page.getByRole('heading', { name: 'Settings & Privacy' }).waitFor();
    await page.getByText('University ID cannot be changed').waitFor();

    await page.getByLabel('New email address').fill(userA.email.toUpperCase());
    await page.getByRole('button', { name: 'Send Verification Code' }).click();
    await page.getByText('The email address is the same as your current one').waitFor();
    await page.getByLabel('New email address').fill(newEmail);
    await page.getByRole('button', { name: 'Send Verification Code' }).click();
    await page.getByText('Enter the 6-digit code we sent to').waitFor();
    await page.getByText('ki***').waitFor();
    await page.getByRole('button', { name: 'Verify & Update Email' }).click();
    await page.getByText('Please enter all 6 digits of the OTP.').waitFor();
    await shootAll(page, '45-settings-email-code');
    const mailCode = await waitForCode(dataDir, newEmail);
    // Typing advances box by box.
    await page.getByLabel('Digit 1').click();
    await page.keyboard.type(mailCode.code);
    expect(await page.getByLabel('Digit 6').inputValue()).toBe(mailCode.code[5]);
    await page.getByRole('button', { name: 'Verify & Update Email' }).click();
    await page.getByText('Email updated successfully!').waitFor();
    await page.locator('.settings-fact', { hasText: 'Email' }).getByText(newEmail).waitFor();
    // The older token was revoked; the new one is in use: still signed in, the socket back.
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await page.evaluate(() => localStorage.getItem('campus.token'))).not.toBeNull();

    await page.getByRole('tab', { name: 'Password & Security' }).click();
    await page.getByLabel('Current password', { exact: true }).fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password', { exact: true }).fill('different#2026');
    await page.getByRole('button', { name: 'Send Verification Code' }).click();
    await page.getByText('New passwords do not match').waitFor();
    await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Send Verification Code' }).click();
    await page.getByText('Current password is incorrect. Please try again.').waitFor();
    await shootAll(page, '46-settings-password');
    const before = lastMailName(newEmail);
    await page.getByLabel('Current password', { exact: true }).fill(userA.password);
    await page.getByRole('button', { name: 'Send Verification Code' }).click();
    await page.getByText('Enter the 6-digit code we sent to').waitFor();
    const pwCode = await waitForCode(dataDir, newEmail, { after: before });
    // Pasting the code fills all six boxes.
    await page.evaluate((c) => navigator.clipboard.writeText(c), pwCode.code);
    await page.getByLabel('Digit 1').focus();
    await page.keyboard.press('Control+V');
    expect(await page.getByLabel('Digit 6').inputValue()).toBe(pwCode.code[5]);
    await page.getByRole('button', { name: 'Verify & Update Password' }).click();
    await page.getByText('Password updated successfully!').waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).inputValue()).toBe('');
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).pathname).toBe('/settings');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Log Out/ }).click();
    await page.waitForURL('**/login');
    await loginUI(page, userA.email, userA.password);
    await page.getByRole('alert').first().waitFor();
    await loginUI(page, newEmail, newPassword);
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
  });

  it('A deletes the account and can no longer log in', async () => {
    const { page } = a;
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Settings & privacy/ }).click();
    await page.getByRole('tab', { name: 'Delete Account' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const send = page.getByRole('button', { name: 'Send Verification Code' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Type DELETE to confirm').fill('delete');
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Type DELETE to confirm').fill('DELETE');
    await shootAll(page, '47-settings-delete');
    const before = lastMailName(newEmail);
    await send.click();
    await page.getByText('Enter the 6-digit code we sent to').waitFor();
    const { code } = await waitForCode(dataDir, newEmail, { after: before });
    await page.getByLabel('Digit 1').fill(code);
    await page.getByRole('button', { name: 'Verify & Delete Account' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();

    await loginUI(page, newEmail, newPassword);
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('button', { name: /What's on your mind/ }).count()).toBe(0);
    const res = await api(baseURL, 'POST', '/auth/login', { email: newEmail, password: newPassword, role: 'student' });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it('logged no CSP violations or script errors', () => {
    const all = [...a.problems.errors, ...b.problems.errors];
    const csp = all.filter((e) => /Content Security Policy|Refused to/i.test(e));
    expect(csp).toEqual([]);
    const other = all.filter((e) => !csp.includes(e));
    if (other.length > 0) console.warn('e2e: console errors seen:\n' + other.join('\n'));
  });
});
