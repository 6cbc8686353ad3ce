// `npm run e2e`: Playwright (playwright-core + Debian's chromium) against a
// real `campus serve` with its embedded Postgres. Specs run one at a time:
// they share one server and two CPU cores.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Specs share one server and database: run them in file-name order, not by
 * the timings of an earlier run, so every run sees the same data — except
 * flow, which walks a new user's first day on an empty database (its first
 * feed shows the welcome) and so always goes first.
 */
class ByFileName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => (f.moduleId.endsWith('/flow.e2e.ts') ? 0 : 1);
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
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
