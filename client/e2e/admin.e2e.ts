// Issue 26 (part 5), the admins' console in Chromium on the shared server: the
// first admin is made with `campus admin grant` while the server runs (on
// its embedded Postgres); a member who is not an admin is told /admin is
// not for them and has no menu entry; the admin opens the console from the
// avatar menu, finds an account, makes it a moderator, suspends it with a
// reason and lifts the suspension, signs it out everywhere, lists every
// group (a secret one too), reads the system page (this node's version,
// members, sockets) and follows the link to the moderation queue, whose
// audit log has the console's actions. axe on every console screen (desktop
// and mobile, light and dark); screenshots of each.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, describeFindings, type AxeFinding } from './support/axe';
import { launch, newPage, shootAll } from './support/browser';
import { CLIENT_DIR } from './support/server';
import { createStudent, loginUI, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const person = (first: string, last: string, i: number) => ({
  name: `${first} ${last}`,
  email: `${first.toLowerCase()}.${n}@uni.test`,
  universityId: `BWU/ADM/22/${n + i}`,
  password: `${first}#2025x`,
});
const ada = person('Ada', 'Admin', 0);
const meera = person('Meera', 'Member', 1);
const tariq = person('Tariq', 'Target', 2);
const groupName = `Quiet Room ${n}`;

let browser: Browser;
const sessions: Record<string, Session> = {};

/** `campus admin …` against the running server's data dir, as an operator would run it. */
function campusAdmin(...args: string[]): string {
  const bin = resolve(CLIENT_DIR, process.env.CAMPUS_BIN ?? '../bin/campus');
  return execFileSync(bin, ['admin', ...args], {
    env: { ...process.env, CAMPUS_DATA_DIR: dataDir, CAMPUS_LOG_LEVEL: 'warn', DATABASE_URL: '' },
    encoding: 'utf8',
  });
}

describe('admin console', () => {
  beforeAll(async () => {
    for (const u of [ada, meera, tariq]) sessions[u.email] = await createStudent({ baseURL, dataDir }, u);
    const made = await api(
      baseURL,
      'POST',
      '/groups',
      { name: groupName, handle: `quiet-${n}`, description: 'A secret club', kind: 'club', visibility: 'secret' },
      sessions[tariq.email]!.token,
    );
    expect(made.status).toBe(201);
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('campus admin grant works while the node runs', () => {
    expect(campusAdmin('grant', ada.email)).toContain('Now an admin');
    // The operator's listing finds her with the role.
    expect(campusAdmin('users', 'list', '-q', `ada.${n}`)).toMatch(/admin/);
  });

  it('a member who is not an admin is told, and has no menu entry', async () => {
    const m = await newPage(browser, baseURL);
    await loginUI(m.page, meera);
    await m.page.getByRole('button', { name: 'Account menu' }).click();
    await m.page.getByRole('menuitem', { name: 'Settings & privacy' }).waitFor();
    expect(await m.page.getByRole('menuitem', { name: 'Admin console' }).count()).toBe(0);
    await m.page.keyboard.press('Escape');
    await m.page.goto('/admin');
    await m.page.getByText('Only admins can see the admin console.').waitFor();
    const findings = await axeAllVariants(m.page, 'admin-forbidden');
    expect(findings, describeFindings(findings)).toEqual([]);
    expect(m.problems.errors).toEqual([]);
    await m.context.close();
  });

  it('the admin finds an account, changes its role, suspends and lifts, signs it out, and sees groups and the system', async () => {
    const a = await newPage(browser, baseURL);
    const page = a.page;
    const findings: AxeFinding[] = [];
    await loginUI(page, ada);

    // From the avatar menu.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin console' }).click();
    await page.getByRole('heading', { level: 1, name: 'Admin console' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');

    // Users: search, open.
    await page.getByRole('searchbox', { name: 'Search accounts' }).fill(`tariq.${n}`);
    const row = page.getByRole('list', { name: 'Accounts' }).getByRole('button', { name: new RegExp(tariq.name) });
    await row.waitFor();
    await row.click();
    const detail = page.getByRole('article', { name: tariq.name });
    await detail.getByText(tariq.email).waitFor();
    await shootAll(page, 'admin-users');
    findings.push(...(await axeAllVariants(page, 'admin-users')));

    // Role: moderator, after asking.
    await detail.getByRole('button', { name: 'Make moderator' }).click();
    const roleDialog = page.getByRole('dialog', { name: `Make ${tariq.name} a moderator?` });
    await roleDialog.getByRole('button', { name: 'Make moderator' }).click();
    await detail.getByRole('button', { name: 'Remove moderator' }).waitFor();
    // Staff cannot be suspended: take the role back first.
    await detail.getByRole('button', { name: 'Remove moderator' }).click();
    await page.getByRole('dialog', { name: `Remove ${tariq.name} as moderator?` }).getByRole('button', { name: 'Remove moderator' }).click();
    await detail.getByRole('button', { name: 'Make moderator' }).waitFor();

    // Suspend for 7 days with a reason; the dialog is checked by axe too.
    await detail.getByRole('button', { name: 'Suspend' }).click();
    const suspendDialog = page.getByRole('dialog', { name: `Suspend ${tariq.name}?` });
    await suspendDialog.getByRole('textbox').fill('Spam in every group');
    await suspendDialog.getByRole('combobox').selectOption('7');
    findings.push(...(await axeAllVariants(page, 'admin-suspend-dialog')));
    await suspendDialog.getByRole('button', { name: 'Suspend' }).click();
    await detail.getByText(/Suspended until .* — “Spam in every group”/).waitFor();
    // The suspended account's token no longer works (revoked with the suspension).
    expect((await api(baseURL, 'GET', '/users/me', undefined, sessions[tariq.email]!.token)).status).toBe(401);
    await shootAll(page, 'admin-user-suspended');

    // Lift it.
    await detail.getByRole('button', { name: 'Lift suspension' }).click();
    const liftDialog = page.getByRole('dialog', { name: `Lift ${tariq.name}'s suspension?` });
    await liftDialog.getByRole('textbox').fill('Appeal accepted');
    await liftDialog.getByRole('button', { name: 'Lift suspension' }).click();
    await detail.getByRole('button', { name: 'Suspend' }).waitFor();

    // Sign out everywhere: a fresh session of Tariq's stops working.
    const fresh = await api<Session>(baseURL, 'POST', '/auth/login', { email: tariq.email, password: tariq.password, role: 'student' });
    expect(fresh.status).toBe(200);
    await detail.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('dialog', { name: `Sign ${tariq.name} out everywhere?` }).getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('Signed out everywhere').first().waitFor();
    expect((await api(baseURL, 'GET', '/users/me', undefined, fresh.data.token)).status).toBe(401);

    // Groups: the secret club is listed and linked.
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.getByRole('searchbox', { name: 'Search groups' }).fill(`quiet-${n}`);
    const table = page.getByRole('table', { name: 'Groups' });
    await table.getByRole('link', { name: groupName }).waitFor();
    expect(await table.getByRole('row', { name: new RegExp(groupName) }).textContent()).toContain('secret');
    await shootAll(page, 'admin-groups');
    findings.push(...(await axeAllVariants(page, 'admin-groups')));

    // System: this node's heartbeat and the database.
    await page.getByRole('tab', { name: 'System' }).click();
    const node = page.getByRole('article', { name: /^Node / });
    await node.first().waitFor();
    const text = (await node.first().textContent()) ?? '';
    expect(text).toContain('Members it sees (1)');
    expect(text).toContain('Open sockets');
    await page.getByRole('heading', { name: 'Database' }).waitFor();
    await page.getByText(/of \d+ \(/).first().waitFor(); // connections of max_connections
    await shootAll(page, 'admin-system');
    findings.push(...(await axeAllVariants(page, 'admin-system')));

    // The moderation queue and its audit log, linked; the console's actions are there.
    await page.getByRole('button', { name: /The audit log/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Moderation queue' }).waitFor();
    const audit = page.getByRole('list', { name: 'Audit log' });
    await audit.getByText(/signed out everywhere/).waitFor();
    const log = (await audit.textContent()) ?? '';
    expect(log).toContain('suspended');
    expect(log).toContain('Spam in every group');
    expect(log).toContain('made a moderator:');
    expect(log).toContain('Operator (campus admin)'); // the grant from the command line

    expect(findings, describeFindings(findings)).toEqual([]);
    expect(a.problems.errors).toEqual([]);
    await a.context.close();
  }, 240_000);
});
