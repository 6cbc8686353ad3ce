// `npm run e2e`: Playwright (playwright-core + Debian's chromium) against a
// real `campus serve` with its embedded Postgres. Specs run one at a time:
// they share one server and two CPU cores.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Specs share one server and database: run them in file-name order (flow,
 * live, signin, social), not by the timings of an earlier run, so every run sees
 * the same data (e.g. flow's first feed is empty).
 */
class ByFileName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/globalSetup.ts'],
    fileParallelism: false,
    sequence: { sequencer: ByFileName },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
