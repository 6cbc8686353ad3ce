// axe-core in the page (issue 16: 0 serious or critical violations on every
// screen, light and dark, desktop and mobile). The source goes in through
// page.evaluate, which the page's CSP does not govern, so the app's policy
// stays as strict as in production.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, NARROW } from './browser';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  screen: string;
  variant: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * Moderate rules issue 16 #8 named (landmarks, an h1, heading levels): these
 * fail the test too, whatever axe's impact says.
 */
const ALSO_FAIL = new Set([
  'region',
  'landmark-one-main',
  'landmark-unique',
  'landmark-complementary-is-top-level',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main',
  'page-has-heading-one',
  'heading-order',
]);

/** Runs axe once on the page as it is and answers the serious and critical violations (and ALSO_FAIL). */
export async function axeSerious(page: Page, screen: string, variant: string): Promise<AxeFinding[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  })`)) as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || ALSO_FAIL.has(v.id))
    .map((v) => ({
      screen,
      variant,
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)),
    }));
}

/**
 * axe on the current screen at 1280×800, 390×844 and 360×780, light and dark. The
 * viewport and scheme are restored afterwards. Findings are returned, not
 * thrown, so one run lists every screen's problems at once.
 */
export async function axeAllVariants(page: Page, screen: string): Promise<AxeFinding[]> {
  const original = page.viewportSize() ?? DESKTOP;
  const out: AxeFinding[] = [];
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
    ['360', NARROW],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.waitForTimeout(100);
      out.push(...(await axeSerious(page, screen, `${label}-${scheme}`)));
    }
  }
  await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  return out;
}

/** One line per finding, for the assertion message. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings.map((f) => `${f.screen} [${f.variant}] ${f.impact} ${f.id}: ${f.help} ${f.targets.join(' ')}`).join('\n');
}
