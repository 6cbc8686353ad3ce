// Students for e2e set-up: signed up through the API with the e-mailed code
// confirmed (the sign-up flow itself is signin.e2e.ts's subject), and the
// UI sign-in most specs start from.

import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { api } from './api';
import { waitForCode } from './mail';

/** A student to sign up; program defaults to BCA, batch to 2022. */
export interface Student {
  name: string;
  email: string;
  universityId: string;
  password: string;
  program?: string;
  batch?: string;
}

/** Where a spec's server runs: its API base and the data dir the server writes mail into. */
export interface Where {
  baseURL: string;
  dataDir: string;
}

/** Signs u up and confirms the e-mailed code; answers the session token the confirmation returns. */
export async function signUp(where: Where, u: Student): Promise<string> {
  const res = await api(where.baseURL, 'POST', '/auth/signup', {
    name: u.name,
    email: u.email,
    password: u.password,
    role: 'student',
    collegeId: u.universityId,
    universityId: u.universityId,
    program: u.program ?? 'BCA',
    batch: u.batch ?? '2022',
  });
  expect(res.status).toBe(201);
  const { code } = await waitForCode(where.dataDir, u.email);
  const verified = await api<{ token: string }>(where.baseURL, 'POST', '/auth/verify-otp', { email: u.email, otp: code });
  expect(verified.status).toBe(200);
  return verified.data.token;
}

/** A signed-in session from the login API. */
export interface Session {
  token: string;
  user: { id: string };
}

/** Signs u up, confirms the code, then logs in through the API; answers the login's token and user. */
export async function createStudent(where: Where, u: Student): Promise<Session> {
  await signUp(where, u);
  const login = await api<Session>(where.baseURL, 'POST', '/auth/login', { email: u.email, password: u.password, role: 'student' });
  expect(login.status).toBe(200);
  return login.data;
}

/** Signs u in through the login screen and waits for the feed's composer. */
export async function loginUI(page: Page, u: Pick<Student, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email or university ID').fill(u.email);
  await page.getByLabel('Password', { exact: true }).fill(u.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: /What's on your mind/ }).waitFor();
}
