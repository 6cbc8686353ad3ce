// The signed-out screens render and look right (no backend features beyond
// /api/config and /api/health needed), with screenshots of each.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, newPage, shootAll, type PageProblems } from './support/browser';

const baseURL = inject('baseURL');

describe('signed-out screens', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves the app with a strict CSP and renders the sign-in page', async () => {
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await page.title()).toBe('Campus');
    await expect(page.getByRole('button', { name: 'Sign In' }).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Email or university ID').isVisible()).resolves.toBe(true);
    await page.getByText('Server: online').waitFor();
    await shootAll(page, '01-login');
  });

  it('shows a validation message without calling the server', async () => {
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Email or university ID is required').waitFor();
    await shootAll(page, '02-login-validation');
  });

  it('a failed login suggests signing up and offers to clear stored data', async () => {
    await page.getByLabel('Email or university ID').fill('nobody@uni.test');
    await page.getByLabel('Password', { exact: true }).fill('Whatever#1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('This email might not be registered. Would you like to sign up instead?').waitFor();
    await page.getByRole('button', { name: 'Clear stored data and try again' }).waitFor();
    await shootAll(page, '02b-login-failure');
    await page.getByLabel('Email or university ID').fill('');
    await page.getByLabel('Password', { exact: true }).fill('');
  });

  it('renders signup for students and faculty', async () => {
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('Abcdef1!');
    await page.locator('.strength-meter--strong').waitFor();
    await shootAll(page, '03-signup-student');
    await page.getByRole('radio', { name: 'Faculty' }).check();
    await page.getByLabel('Department').waitFor();
    await shootAll(page, '04-signup-faculty');
    await page.getByRole('button', { name: 'Sign in' }).click();
  });

  it('renders forgot password', async () => {
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
    await shootAll(page, '05-forgot-password');
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  });

  it('deep links load the app on reload (SPA fallback)', async () => {
    for (const path of ['/login', '/friends', '/profile/abc', '/post/xyz']) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    }
  });

  it('logged no CSP violations or script errors', () => {
    expect(problems.errors).toEqual([]);
  });
});
