// Renders the app icons (public/icons/*.png) from public/favicon.svg with
// Debian's Chromium through playwright-core, the browser the e2e tests use:
// no image library needed. The PNGs are committed; run this again after
// changing the logo: `node scripts/icons.mjs`.
//
// - icon-192.png, icon-512.png: the logo as is (rounded square), purpose "any".
// - maskable-512.png: the mark on a full-bleed square, inside the 80 % safe
//   zone, for launchers that cut their own shape (purpose "maskable").
// - apple-touch-icon.png (180): iOS rounds the corners itself, so full-bleed too.
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const root = new URL('../public/', import.meta.url);
const svg = await readFile(new URL('favicon.svg', root), 'utf8');
// The mark without its rounded background, for the full-bleed variants.
const mark = svg.replace(/<rect[^>]*\/>/, '');
const bg = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? '#2f5bea';

const icons = [
  { file: 'icon-192.png', size: 192, html: svg, pad: 0, fill: 'transparent' },
  { file: 'icon-512.png', size: 512, html: svg, pad: 0, fill: 'transparent' },
  { file: 'maskable-512.png', size: 512, html: mark, pad: 0.2, fill: bg },
  { file: 'apple-touch-icon.png', size: 180, html: mark, pad: 0.12, fill: bg },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const icon of icons) {
    const inner = Math.round(icon.size * (1 - icon.pad));
    await page.setViewportSize({ width: icon.size, height: icon.size });
    await page.setContent(
      `<html><body style="margin:0;background:${icon.fill};display:grid;place-items:center;width:${icon.size}px;height:${icon.size}px">` +
        icon.html.replace('<svg ', `<svg width="${inner}" height="${inner}" `) +
        '</body></html>',
    );
    await page.screenshot({ path: new URL(`icons/${icon.file}`, root).pathname, omitBackground: icon.fill === 'transparent' });
    console.log(`public/icons/${icon.file}`);
  }
} finally {
  await browser.close();
}
