// Issue 16, images done properly: alt text written in the composer, kept
// through a reload, shown as the <img alt> and edited with the post; the
// server's copies offered in srcset with the size reserved; the full-screen
// viewer driven by the keyboard (open, →, ←, Esc gives focus back to the
// image). Screenshots: the composer with its alt fields and the viewer,
// desktop and mobile, light and dark.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, NARROW, newPage, shootAll, type PageProblems } from './support/browser';
import { png, writePng } from './support/images';
import { loginUI, signUp } from './support/users';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

const n = (Date.now() % 900_000) + 100_000;
const author = { name: 'Ines Park', email: `ines.images.${n}@uni.test`, universityId: `BWU/BCA/22/${n}`, password: 'Ines#2025img' };

const ALT_1 = 'Students sitting on the steps of the library at sunset';
const ALT_2 = 'A bar chart of club sign-ups: robotics leads with 42';
const ALT_1_EDITED = 'Students on the library steps at sunset, seen from the quad';

/** The card's images, in order: alt, srcset, width/height attributes, loading. */
async function cardImages(page: Page, postId: string) {
  return page.locator(`article[data-post-id="${postId}"] .post-card__media img`).evaluateAll((imgs) =>
    imgs.map((el) => {
      const img = el as HTMLImageElement;
      return {
        alt: img.alt,
        srcset: img.getAttribute('srcset') ?? '',
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        loading: img.getAttribute('loading'),
      };
    }),
  );
}

describe('images (issue 16)', () => {
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let postId = '';
  let text = '';
  let token = '';

  beforeAll(async () => {
    browser = await launch();
    ({ page, problems } = await newPage(browser, baseURL));
    token = await signUp({ baseURL, dataDir }, author);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('alt text round-trips: composed, kept through a reload as <img alt>, edited with the post', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-images-'));
    const wide = writePng(dir, 'library.png', 1600, 1000, [230, 120, 40], [40, 60, 160]);
    const chart = writePng(dir, 'chart.png', 900, 600, [20, 140, 90], [250, 240, 200]);

    await loginUI(page, author);
    await page.getByRole('button', { name: /What's on your mind/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Post' });
    await dialog.waitFor();
    text = `Golden hour on campus ${n}`;
    await dialog.getByLabel('Post text').fill(text);
    await page.getByTestId('post-images-input').setInputFiles([wide, chart]);
    await dialog.getByLabel('Description of image 1 (alt text)').fill(ALT_1);
    await dialog.getByLabel('Description of image 2 (alt text)').fill(ALT_2);
    // The preview shows the description as its alt at once.
    expect(await dialog.locator('.create-post__preview img').first().getAttribute('alt')).toBe(ALT_1);
    await shootAll(page, 'composer-alt-text');
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    const card = page.locator('article.post-card', { hasText: text });
    await card.waitFor();
    postId = (await card.getAttribute('data-post-id')) ?? '';
    expect(postId).not.toBe('');

    await page.reload();
    await page.locator(`article[data-post-id="${postId}"]`).waitFor();
    const imgs = await cardImages(page, postId);
    expect(imgs.map((i) => i.alt)).toEqual([ALT_1, ALT_2]);
    // srcset from the server's copies (the original 1600 px, its 96, 320, 720 and 1280 px copies); size reserved; lazy.
    expect(imgs[0]!.srcset).toMatch(/-96\.jpg 96w, .*-320\.jpg 320w, .*-720\.jpg 720w, .*-1280\.jpg 1280w, .*\.png 1600w$/);
    expect(imgs[1]!.srcset).toMatch(/-96\.jpg 96w, .*-320\.jpg 320w, .*-720\.jpg 720w, .*\.png 900w$/);
    expect(imgs.map((i) => [i.width, i.height, i.loading])).toEqual([
      ['1600', '1000', 'lazy'],
      ['900', '600', 'lazy'],
    ]);
    // Every candidate is served.
    for (const candidate of imgs.flatMap((i) => i.srcset.split(', ').map((c) => c.split(' ')[0]!))) {
      expect((await fetch(baseURL + candidate)).status, candidate).toBe(200);
    }

    // Edit: the description changes with the post.
    await page.locator(`article[data-post-id="${postId}"]`).getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Edit post' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit post' });
    await edit.waitFor();
    const field = edit.getByLabel('Description of image 1 (alt text)');
    expect(await field.inputValue()).toBe(ALT_1);
    await field.fill(ALT_1_EDITED);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator(`article[data-post-id="${postId}"]`).waitFor();
    expect((await cardImages(page, postId)).map((i) => i.alt)).toEqual([ALT_1_EDITED, ALT_2]);
    expect(problems.errors).toEqual([]);
  });

  it('the viewer by keyboard: open, →, ←, Esc gives focus back to the image', async () => {
    expect(postId).not.toBe('');
    const card = page.locator(`article[data-post-id="${postId}"]`);
    const opener = card.getByRole('button', { name: ALT_1_EDITED });
    await opener.focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: `Images shared by ${author.name}, image 1 of 2` });
    await viewer.waitFor();
    expect(await viewer.getByRole('img').getAttribute('alt')).toBe(ALT_1_EDITED);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close image viewer');
    // The description is visible too, under the picture.
    await viewer.getByText(ALT_1_EDITED, { exact: true }).first().waitFor();

    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: `Images shared by ${author.name}, image 2 of 2` }).waitFor();
    expect(await page.getByRole('dialog').getByRole('img').getAttribute('alt')).toBe(ALT_2);
    await shootAll(page, 'image-viewer');
    await page.keyboard.press('ArrowLeft');
    await viewer.waitFor();
    // Tab stays inside the viewer.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('.image-viewer'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.locator('.image-viewer').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.querySelector('img')?.alt)).toBe(ALT_1_EDITED);
    expect(problems.errors).toEqual([]);
  });

  it('bytes (issue 27 item 9): a 40 px avatar loads the 96 px copy, a feed photo the 720 px one', async () => {
    expect(postId).not.toBe('');
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(png(800, 800, [200, 60, 90], [30, 150, 210]))], { type: 'image/png' }), 'me.png');
    const res = await fetch(`${baseURL}/api/profile/avatar`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(200);
    const avatar = ((await res.json()) as { data: { avatar: { url: string; variants: { url: string; width: number }[] } } }).data.avatar;
    expect(avatar.variants.map((v) => v.width)).toEqual([96, 320, 720]);

    // A fresh browser (no cache) at 1280×800, 1× pixels, signed in with the same token.
    const fresh = await newPage(browser, baseURL);
    const media: string[] = [];
    fresh.page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/media/')) media.push(path);
    });
    await fresh.page.goto('/login');
    await fresh.page.evaluate(
      ([t, auth]) => {
        localStorage.setItem('campus.token', t!);
        localStorage.setItem('campus.auth', auth!);
      },
      [token, await page.evaluate(() => localStorage.getItem('campus.auth') ?? '')] as const,
    );
    await fresh.page.goto('/');
    const card = fresh.page.locator(`article[data-post-id="${postId}"]`);
    await card.waitFor();
    await fresh.page.waitForFunction(
      (id) => {
        const img = document.querySelector<HTMLImageElement>(`article[data-post-id="${id}"] .avatar img`);
        return !!img && img.complete && img.currentSrc !== '';
      },
      postId,
    );
    const shown = await card.locator('.avatar img').first().evaluate((img) => ({
      currentSrc: (img as HTMLImageElement).currentSrc,
      width: img.getBoundingClientRect().width,
      sizes: img.getAttribute('sizes'),
    }));
    expect(shown.width).toBe(40);
    expect(shown.sizes).toBe('40px');
    expect(new URL(shown.currentSrc).pathname).toBe(avatar.variants[0]!.url);
    // The feed photo: the 720 px copy fills the 680 px column at 1×.
    await fresh.page.waitForFunction(
      (id) => {
        const img = document.querySelector<HTMLImageElement>(`article[data-post-id="${id}"] .post-card__media img`);
        return !!img && img.complete && img.currentSrc !== '';
      },
      postId,
    );
    const photo = await card.locator('.post-card__media img').first().evaluate((img) => (img as HTMLImageElement).currentSrc);
    expect(photo).toMatch(/-720\.jpg$/);
    // Neither the avatar's 320 px copy nor its original was asked for.
    const key = avatar.url.replace(/\.[a-z]+$/, '');
    // The same copy may be fetched twice when two images ask for it before the first answer is
    // cached (the header's avatar and the card's); what matters is which copies were asked for.
    expect([...new Set(media.filter((m) => m.startsWith(key)))]).toEqual([avatar.variants[0]!.url]);
    expect(media.some((m) => m.endsWith('-1280.jpg'))).toBe(false);
    expect(fresh.problems.errors).toEqual([]);
    await shootAll(fresh.page, 'bytes-feed', NARROW);
    await fresh.context.close();
  });
});
