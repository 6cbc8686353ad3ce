import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyScreen } from './lazyScreen';

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
});
