import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { ChunkLoadError, lazyScreen, retryFailedLoads } from './lazyScreen';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyScreen', () => {
  it('renders at once, with no fallback, once preloaded', async () => {
    const s = lazyScreen(() => Promise.resolve(Hello));
    await s.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <s.Component name="Asha" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Asha')).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('suspends like lazy() when not preloaded, and loads once', async () => {
    let loads = 0;
    const s = lazyScreen(() => {
      loads++;
      return Promise.resolve(Hello);
    });
    render(
      <Suspense fallback={<p>Loading</p>}>
        <s.Component name="Bo" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(await screen.findByText('Hello Bo')).toBeTruthy();
    await act(() => s.preload());
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let fail = true;
    const s = lazyScreen(() => (fail ? Promise.reject(new Error('chunk')) : Promise.resolve(Hello)));
    await expect(s.preload()).rejects.toThrow('chunk');
    fail = false;
    await expect(s.preload()).resolves.toBeUndefined();
  });

  it('fails with a ChunkLoadError carrying the import error (what ui/ChunkBoundary catches)', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const s = lazyScreen(() => Promise.reject(cause));
    const err: unknown = await s.preload().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect((err as ChunkLoadError).cause).toBe(cause);
  });

  it('a screen first rendered after a failed preload imports again', async () => {
    let fail = true;
    let loads = 0;
    const s = lazyScreen(() => {
      loads++;
      return fail ? Promise.reject(new Error('chunk')) : Promise.resolve(Hello);
    });
    await expect(s.preload()).rejects.toThrow('chunk');
    fail = false;
    // Rendered now, the component imports again (its lazy() never ran).
    render(
      <Suspense fallback={<p>Loading</p>}>
        <s.Component name="Cy" />
      </Suspense>,
    );
    expect(await screen.findByText('Hello Cy')).toBeTruthy();
    expect(loads).toBe(2);
    // A no-op once loaded: no more imports, no suspending.
    retryFailedLoads();
    expect(loads).toBe(2);
  });
});
