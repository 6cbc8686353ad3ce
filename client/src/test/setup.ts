// Shared test setup. The machines running the suite are busy (two cores,
// builds in parallel): give findBy*/waitFor more than the default 1 s.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });

// Per-tab storage (the saved page) must not leak between tests either.
import { beforeEach } from 'vitest';

beforeEach(() => {
  try {
    window.sessionStorage.clear();
  } catch {
    // no DOM in this test
  }
});
