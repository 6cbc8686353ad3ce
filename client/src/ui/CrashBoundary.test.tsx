import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setReload } from '../lib/redirect';
import { ChunkBoundary } from './ChunkBoundary';
import { CrashBoundary, MSG_CRASH } from './CrashBoundary';

/** Throws while rendering when broken: a bug in a page. */
function Page({ broken }: { broken: boolean }) {
  if (broken) throw new TypeError("Cannot read properties of undefined (reading 'name')");
  return <p>Page content</p>;
}

let reloads: number;
let restoreReload: () => void;

beforeEach(() => {
  reloads = 0;
  restoreReload = setReload(() => {
    reloads++;
  });
  // React and the boundary report the error on the console; keep the output clean.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  restoreReload();
  vi.restoreAllMocks();
});

describe('CrashBoundary', () => {
  it('shows the alert in place of a part that failed while rendering, and Reload reloads', () => {
    render(
      <div>
        <nav>Bars</nav>
        <CrashBoundary>
          <Page broken />
        </CrashBoundary>
      </div>,
    );
    expect(screen.getByRole('alert').textContent).toContain(MSG_CRASH);
    expect(screen.getByText('Bars')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reloads).toBe(1);
  });

  it('a bug inside a ChunkBoundary is not a chunk failure: it reaches the CrashBoundary', () => {
    render(
      <CrashBoundary>
        <ChunkBoundary>
          <Page broken />
        </ChunkBoundary>
      </CrashBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain(MSG_CRASH);
  });

  it('a new resetKey (another page) renders again', () => {
    const { rerender } = render(
      <CrashBoundary resetKey="a">
        <Page broken />
      </CrashBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    rerender(
      <CrashBoundary resetKey="b">
        <Page broken={false} />
      </CrashBoundary>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Page content')).toBeTruthy();
  });
});
