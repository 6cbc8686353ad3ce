// Issue 27 item 4, the event big screen at /g/{handle}/live: on an event
// group with a pinned photo post and a dozen hot posts, at 1280×720 and
// 1920×1080 every element of the page lies inside the viewport and nothing
// scrolls (the "#1 hot" post on screen beside the pinned one); a like moves a
// count with its animation (none under prefers-reduced-motion); the screen
// keeps its own dark theme whatever the app's; its back link is a ≥ 24 px
// target. axe at both sizes and on phones, light and dark; screenshots.

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from './support/api';
import { axeAllVariants, axeSerious, describeFindings } from './support/axe';
import { launch, NARROW, newPage, SCREENSHOT_DIR, shootAll, type PageProblems } from './support/browser';
import { png } from './support/images';
import { createStudent, loginUI, type Session } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const host = { name: 'Divya Nair', email: `divya.bs${n}@uni.test`, universityId: `BWU/BCA/23/${n}`, password: 'Divya#2025x' };
const fan = { name: 'Farhan Ali', email: `farhan.bs${n}@uni.test`, universityId: `BWU/BCA/23/${n + 1}`, password: 'Farhan#2025x' };
const handle = `fest-bs-${n}`;
const name = `Spring Fest ${n}`;

/** Elements of the page not inside the viewport (visible ones only), described. */
async function outside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('main *, main'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.display === 'none') continue;
      // Half a pixel of rounding.
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        const label = el.getAttribute('aria-label') ?? el.textContent?.slice(0, 40) ?? '';
        out.push(`${el.tagName.toLowerCase()}.${el.className} "${label}" ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.right)}×${Math.round(r.bottom)}`);
      }
    }
    const doc = document.scrollingElement!;
    if (doc.scrollHeight > vh + 0.5 || doc.scrollWidth > vw + 0.5) out.push(`the page scrolls: ${doc.scrollWidth}×${doc.scrollHeight} in ${vw}×${vh}`);
    return out;
  });
}

describe('the big screen fits (issue 27 item 4)', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let tokHost: Session;
  let tokFan: Session;
  const hot: string[] = [];
  let pinnedId = '';

  beforeAll(async () => {
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
    tokHost = await createStudent({ baseURL, dataDir }, host);
    tokFan = await createStudent({ baseURL, dataDir }, fan);
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    const made = await api<{ id: string }>(
      baseURL,
      'POST',
      '/groups',
      { name, handle, kind: 'event', visibility: 'public', description: 'Music, food and robots', startsAt: start, endsAt: end },
      tokHost.token,
    );
    expect(made.status, made.message).toBe(201);
    expect((await api(baseURL, 'POST', `/groups/${handle}/join`, undefined, tokFan.token)).status).toBe(200);

    // The pinned post: a wide photo and a long welcome.
    const form = new FormData();
    form.append('content', `Welcome to ${name}! The main stage opens at 5, food trucks are by the library, and the robot sumo finals are at 7 in the sports hall. Share your photos with the group and the best ones go up here.`);
    form.append('visibility', 'public');
    form.append('groupId', made.data.id);
    form.append('images', new Blob([new Uint8Array(png(1600, 900, [40, 60, 200], [250, 120, 60]))], { type: 'image/png' }), 'stage.png');
    form.append('imageAlts', 'The main stage under orange lights');
    const res = await fetch(`${baseURL}/api/posts`, { method: 'POST', headers: { Authorization: `Bearer ${tokHost.token}` }, body: form });
    const json = (await res.json()) as { data: { post: { id: string } } };
    expect(res.status).toBe(201);
    pinnedId = json.data.post.id;
    expect((await api(baseURL, 'PUT', `/groups/${handle}/pin`, { postId: pinnedId }, tokHost.token)).status).toBe(200);

    // Twelve posts, some long, liked so that the order is known.
    for (let i = 0; i < 12; i++) {
      const content =
        i % 3 === 0
          ? `Post ${i}: ${'the queue for the photo booth goes all the way around the fountain, bring snacks and patience '.repeat(3)}`
          : `Post ${i}: stage ${i} is on`;
      const p = await api<{ post: { id: string } }>(baseURL, 'POST', '/posts', { content, visibility: 'public', groupId: made.data.id }, i % 2 ? tokFan.token : tokHost.token);
      expect(p.status, p.message).toBe(201);
      hot.push(p.data.post.id);
    }
    for (const id of hot.slice(0, 6)) {
      for (const t of [tokHost, tokFan]) expect((await api(baseURL, 'POST', `/posts/${id}/like`, undefined, t.token)).status).toBe(200);
    }
    await loginUI(page, host);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('fits 1280×720 and 1920×1080 with every element inside the viewport, pinned beside the hot list', async () => {
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.goto(`/g/${handle}/live`);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      const pinned = page.getByRole('article', { name: 'Pinned post' });
      await pinned.waitFor();
      await page.getByRole('article', { name: 'Number 5' }).waitFor();
      // The photo has loaded (its size is what could push things out).
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.live-post--pinned img');
        return !!img && img.complete && img.naturalWidth > 0;
      });
      expect(await outside(page), `${size.width}×${size.height}`).toEqual([]);
      // #1 hot is on screen, beside the pinned post (not below it).
      const first = await page.getByRole('article', { name: 'Number 1' }).boundingBox();
      const pin = await pinned.boundingBox();
      expect(first && pin && first.x > pin.x + pin.width - 1).toBe(true);
      expect(first!.y).toBeLessThan(size.height / 2);
      // Large type: the hot posts' text is at least 2.4% of the height.
      const fontPx = await page.locator('.live-post--row .live-post__text').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(fontPx).toBeGreaterThanOrEqual(size.height * 0.024);
      // Its own dark theme, though the app follows a light device here.
      const bg = await page.locator('main.live').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg).toBe('rgb(5, 7, 13)');
      await page.screenshot({ path: join(SCREENSHOT_DIR, `big-screen-${size.width}x${size.height}.png`) });
    }
  });

  it('fits without a pinned post too (two columns of hot posts)', async () => {
    expect((await api(baseURL, 'PUT', `/groups/${handle}/pin`, { postId: null }, tokHost.token)).status).toBe(200);
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.goto(`/g/${handle}/live`);
      await page.getByRole('article', { name: 'Number 10' }).waitFor();
      expect(await outside(page), `${size.width}×${size.height}`).toEqual([]);
    }
    expect((await api(baseURL, 'PUT', `/groups/${handle}/pin`, { postId: pinnedId }, tokHost.token)).status).toBe(200);
  });

  it('animates a count when it moves, and not under prefers-reduced-motion', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/g/${handle}/live`);
    const pinned = page.getByRole('article', { name: 'Pinned post' });
    await pinned.getByTestId('live-likes').filter({ hasText: '0' }).waitFor();
    expect((await api(baseURL, 'POST', `/posts/${pinnedId}/like`, undefined, tokFan.token)).status).toBe(200);
    const count = pinned.getByTestId('live-likes').filter({ hasText: '1' });
    await count.waitFor({ timeout: 15_000 });
    expect(await count.evaluate((el) => el.className)).toContain('is-bumped');
    expect(await count.evaluate((el) => getComputedStyle(el).animationName)).toContain('live-roll-in-up');
    // The old number rolls out beside it, hidden from assistive technology.
    expect(await pinned.locator('.live-count__old').first().getAttribute('aria-hidden')).toBe('true');
    expect(await pinned.getByLabel('1 like', { exact: true }).count()).toBe(1);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect((await api(baseURL, 'POST', `/posts/${pinnedId}/like`, undefined, tokHost.token)).status).toBe(200);
    const two = pinned.getByTestId('live-likes').filter({ hasText: '2' });
    await two.waitFor({ timeout: 15_000 });
    expect(await two.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    expect(await pinned.locator('.live-count__old').first().evaluate((el) => getComputedStyle(el).visibility)).toBe('hidden');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('its back link is a target of at least 24 px and leads to the group', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const back = page.getByRole('link', { name: 'Back to the group' });
    const box = await back.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(24);
    expect(box!.width).toBeGreaterThanOrEqual(24);
    await back.click();
    await page.getByRole('tab', { name: 'About' }).or(page.getByRole('heading', { name, level: 1 })).first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/g/${handle}`);
  });

  it('axe: 0 serious or critical at both sizes, on phones, light and dark; screenshots', async () => {
    await page.goto(`/g/${handle}/live`);
    await page.getByRole('article', { name: 'Pinned post' }).waitFor();
    const findings = await axeAllVariants(page, 'big-screen');
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        findings.push(...(await axeSerious(page, 'big-screen', `${size.width}x${size.height}-${scheme}`)));
      }
    }
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    expect(findings, describeFindings(findings)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });
    await shootAll(page, 'big-screen', NARROW);
    expect(problems.errors).toEqual([]);
  });
});
