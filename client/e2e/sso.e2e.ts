// Issue 28 in Chromium: university sign-in through the login pages of two
// real identity providers on loopback (sso/ssotest/cmd/idps: zitadel/oidc's
// example OpenID provider and crewjam/saml's samlidp). A student signs in
// with OpenID Connect for the first time (the account is made, onboarding
// follows), signs out (through the provider's logout) and in again (the same
// account); a faculty member signs in with SAML; a sign-in cancelled at the
// provider says so; a person with a password account proves it is hers
// before her university account opens it, links the SAML sign-in in
// Settings and removes it again, and the only way into an account cannot be
// removed. Then the operator turns password sign-up and login off, and the
// screens point at the university sign-in. Screenshots of each state at
// 1280×800 and 360×740, light and dark, and axe on each (0 serious or
// critical).
//
// This spec runs its own server (configured for both providers, on a port
// that survives the restart into SSO-only mode), so the shared server's
// login screen stays as the other specs expect it.

import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api';
import { axeSerious, describeFindings, type AxeFinding } from './support/axe';
import { DESKTOP, launch, newPage, SCREENSHOT_DIR, type PageProblems } from './support/browser';
import { startIdps, type RunningIdps } from './support/idps';
import { freePort, startServer, type RunningServer } from './support/server';
import { signUp } from './support/users';

const OIDC = 'Bluewater University';
const SAML = 'Bluewater Shibboleth';
const NARROW = { width: 360, height: 740 };

// The people at both providers (sso/ssotest/cmd/idps).
const asha = { username: 'asha', password: 'asha-pass', email: 'asha@bwu.edu' };
const ravi = { username: 'ravi', password: 'ravi-pass', email: 'ravi@staff.bwu.edu' };
const mira = { username: 'mira', password: 'mira-pass', email: 'mira@bwu.edu' };
// Mira's password account at Campus, made before she ever uses the university sign-in.
const miraAccount = { name: 'Mira Das', email: mira.email, universityId: 'BWU/BCA/20/456', password: 'Mira#2025x' };

let idps: RunningIdps;
let server: RunningServer;
let browser: Browser;
let port: number;
let idpDir: string;
const findings: AxeFinding[] = [];
const pages: PageProblems[] = [];
const contexts: BrowserContext[] = [];
// The page a step works in, for the record of a failed step.
let current: Page | undefined;

/**
 * Screenshots and axe for one state: 1280×800 and 360×740, light and dark.
 * The viewport and scheme are restored afterwards.
 */
async function capture(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['360', NARROW],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.waitForTimeout(150); // let transitions settle
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}--${label}-${scheme}.png`), fullPage: true });
      findings.push(...(await axeSerious(page, name, `${label}-${scheme}`)));
    }
  }
  await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
}

/** A fresh browser context (its own cookies and storage) on the login screen. */
async function freshLogin(): Promise<Page> {
  const p = await newPage(browser, server.baseURL);
  pages.push(p.problems);
  contexts.push(p.context);
  current = p.page;
  await p.page.goto('/login');
  await p.page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  return p.page;
}

/** On the OpenID provider's own login page (another origin): signs in as who. */
async function oidcLogin(page: Page, who: { username: string; password: string }, shot?: string): Promise<void> {
  await page.waitForURL((u) => u.origin === new URL(idps.env.CAMPUS_OIDC_ISSUER!).origin);
  await page.getByLabel('Username:').fill(who.username);
  await page.getByLabel('Password:').fill(who.password);
  if (shot) await page.screenshot({ path: join(SCREENSHOT_DIR, `${shot}--desktop-light.png`) });
  await page.getByRole('button', { name: 'Login' }).click();
}

/** On the SAML IdP's own login page: signs in as who; its answer posts itself to our ACS. */
async function samlLogin(page: Page, who: { username: string; password: string }, shot?: string): Promise<void> {
  await page.waitForURL((u) => u.origin === new URL(idps.env.CAMPUS_SAML_IDP_METADATA_URL!).origin);
  await page.getByPlaceholder('user').fill(who.username);
  await page.getByPlaceholder('password').fill(who.password);
  if (shot) await page.screenshot({ path: join(SCREENSHOT_DIR, `${shot}--desktop-light.png`) });
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** The signed-in user, from the token the page keeps. */
async function me(page: Page): Promise<Record<string, unknown>> {
  const token = await page.evaluate(() => localStorage.getItem('campus.token'));
  expect(token).toBeTruthy();
  const res = await api<{ user: Record<string, unknown> }>(server.baseURL, 'GET', '/users/me', undefined, token ?? '');
  expect(res.status).toBe(200);
  return res.data.user;
}

async function skipOnboarding(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Skip profile setup' }).click();
  await page.getByRole('heading', { name: 'Find People You Know' }).waitFor();
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
}

async function openSignIns(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: /Settings & privacy/ }).click();
  await page.getByRole('tab', { name: 'Linked sign-ins' }).click();
  await page.getByRole('heading', { name: 'Linked sign-ins', level: 2 }).waitFor();
}

describe('university sign-in through real identity providers', () => {
  let ashaId = '';

  beforeAll(async () => {
    port = await freePort();
    idpDir = await mkdtemp(join(tmpdir(), 'campus-e2e-idps-'));
    idps = await startIdps(`http://127.0.0.1:${port}`, idpDir);
    server = await startServer({ port, env: idps.env, keepData: true });
    await signUp(server, miraAccount);
    browser = await launch();
  }, 180_000);

  // A failed step leaves its screen and address behind.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !current || current.isClosed()) return;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await current.screenshot({ path: join(SCREENSHOT_DIR, 'sso-failed-step.png'), fullPage: true }).catch(() => {});
    console.log(`sso: failed at ${current.url()}:\n${await current.locator('body').innerText().catch(() => '?')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idps?.stop();
    if (server && process.env.E2E_KEEP_DATA !== '1') await rm(server.dataDir, { recursive: true, force: true });
    if (idpDir) await rm(idpDir, { recursive: true, force: true });
  });

  it('a student’s first OpenID Connect sign-in makes her account, with onboarding', async () => {
    const page = await freshLogin();
    await page.getByRole('button', { name: `Sign in with ${SAML}` }).waitFor();
    await capture(page, 'sso-login');
    await page.getByRole('button', { name: `Sign in with ${OIDC}` }).click();
    await oidcLogin(page, asha, 'sso-oidc-provider-login');
    // Back from the provider: the account is made, onboarding as after a sign-up.
    await page.getByRole('heading', { name: 'Add a profile picture' }).waitFor();
    await capture(page, 'sso-onboarding');
    const u = await me(page);
    expect(u).toMatchObject({ role: 'student', universityId: 'BWU/BCA/20/123', email: asha.email, name: 'Asha Sen' });
    ashaId = String(u.id);
    await skipOnboarding(page);
    await capture(page, 'sso-signed-in-feed');
    expect(new URL(page.url()).pathname).toBe('/');

    // Log Out ends the provider's session too and comes back to our login page.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Log Out/ }).click();
    await page.waitForURL(`${server.baseURL}/login`);
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('campus.token'))).toBeNull();

    // Again: the same account, straight to the feed.
    await page.getByRole('button', { name: `Sign in with ${OIDC}` }).click();
    await oidcLogin(page, asha);
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    expect((await me(page)).id).toBe(ashaId);
  });

  it('a deep link opened signed out is where the sign-in ends', async () => {
    const p = await newPage(browser, server.baseURL);
    pages.push(p.problems);
    contexts.push(p.context);
    const { page } = p;
    current = page;
    await page.goto('/friends');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.getByRole('button', { name: `Sign in with ${OIDC}` }).click();
    await oidcLogin(page, asha);
    await page.getByRole('heading', { name: 'Friends', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/friends');
  });

  it('a faculty member signs in with SAML', async () => {
    const page = await freshLogin();
    await page.getByRole('button', { name: `Sign in with ${SAML}` }).click();
    await samlLogin(page, ravi, 'sso-saml-provider-login');
    await page.getByRole('heading', { name: 'Add a profile picture' }).waitFor();
    expect(await me(page)).toMatchObject({ role: 'faculty', department: 'Computer Science', email: ravi.email, name: 'Ravi Rao' });
    await skipOnboarding(page);
  });

  it('a sign-in cancelled at the provider says so', async () => {
    const page = await freshLogin();
    await page.getByRole('button', { name: `Sign in with ${OIDC}` }).click();
    await page.waitForURL((u) => u.origin === new URL(idps.env.CAMPUS_OIDC_ISSUER!).origin);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Not signed in' }).waitFor();
    await page.getByRole('alert').filter({ hasText: `Sign-in with ${OIDC} was cancelled. You can try again.` }).waitFor();
    // The fragment left the address bar.
    expect(new URL(page.url()).hash).toBe('');
    await capture(page, 'sso-cancelled');
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  });

  it('an existing account is opened by a university sign-in only with proof; Settings links and removes', async () => {
    const page = await freshLogin();
    await page.getByRole('button', { name: `Sign in with ${OIDC}` }).click();
    await oidcLogin(page, mira);
    // Her address has an account: she proves it is hers with its password.
    await page.getByRole('heading', { name: 'Link your university sign-in' }).waitFor();
    await capture(page, 'sso-link-proof');
    await page.getByLabel('Password of that account', { exact: true }).fill('not-her-password');
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password of that account', { exact: true }).fill(miraAccount.password);
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    expect(await me(page)).toMatchObject({ email: mira.email, universityId: miraAccount.universityId });

    // Settings: the OpenID sign-in is listed; she links the SAML one too.
    await openSignIns(page);
    const list = page.getByRole('list', { name: 'Linked sign-ins' });
    await list.getByText(OIDC).waitFor();
    await capture(page, 'settings-sign-ins');
    await page.getByRole('button', { name: `Link ${SAML}` }).click();
    await page.getByText('Please enter your current password.').waitFor();
    await page.getByLabel('Current password', { exact: true }).fill(miraAccount.password);
    await page.getByRole('button', { name: `Link ${SAML}` }).click();
    await samlLogin(page, mira);
    // Back on the tab, saying so.
    await page.getByText(`${SAML} is linked: you can sign in with it from now on.`).waitFor();
    await list.getByText(SAML).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/settings');
    await capture(page, 'settings-sign-ins-linked');

    // And removes it again.
    await page.getByRole('button', { name: `Remove ${SAML} (${mira.email})` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this sign-in?' });
    await capture(page, 'settings-sign-ins-remove');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByText(`${SAML} is no longer linked to your account.`).waitFor();
    expect(await list.getByText(SAML).count()).toBe(0);
  });

  it('the only way into an account cannot be removed', async () => {
    const page = await freshLogin();
    await page.getByRole('button', { name: `Sign in with ${OIDC}` }).click();
    await oidcLogin(page, asha);
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
    await openSignIns(page);
    await page.getByRole('button', { name: `Remove ${OIDC} (${asha.email})` }).click();
    await page.getByRole('dialog', { name: 'Remove this sign-in?' }).getByRole('button', { name: 'Remove' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'This is the only way into your account. Set a password first (Forgot password on the login page), then remove it.',
    );
    await page.getByRole('list', { name: 'Linked sign-ins' }).getByText(OIDC).waitFor();
    await capture(page, 'settings-sign-ins-only-way-in');
  });

  it('SSO-only: with password sign-up and login off, the screens point at the university sign-in', async () => {
    // The pages so far are done: closed, so their sockets do not reconnect into the restart.
    for (const c of contexts.splice(0)) await c.close();
    await server.stop();
    server = await startServer({ dataDir: server.dataDir, port, keepData: true, env: { ...idps.env, CAMPUS_PASSWORD_SIGNUP: 'off' } });
    let page = await freshLogin();
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Sign-up with a password is turned off' }).textContent()).toBe(
      `Sign-up with a password is turned off here: your account is made the first time you sign in. Use “Sign in with ${OIDC}” above.`,
    );
    expect(await page.getByLabel('Full name').count()).toBe(0);
    await capture(page, 'sso-only-signup');

    for (const c of contexts.splice(0)) await c.close();
    await server.stop();
    server = await startServer({
      dataDir: server.dataDir,
      port,
      keepData: true,
      env: { ...idps.env, CAMPUS_PASSWORD_SIGNUP: 'off', CAMPUS_PASSWORD_LOGIN: 'off' },
    });
    page = await freshLogin();
    await page.getByText('Signing in with a password is turned off here.', { exact: false }).waitFor();
    expect(await page.getByLabel('Email or university ID').count()).toBe(0);
    await capture(page, 'sso-only-login');
    // The university sign-in still opens the account.
    await page.getByRole('button', { name: `Sign in with ${SAML}` }).click();
    await samlLogin(page, ravi);
    await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
  });

  it('no serious or critical accessibility problems, no console errors', () => {
    expect(findings, describeFindings(findings)).toEqual([]);
    for (const p of pages) expect(p.errors).toEqual([]);
  });
});
