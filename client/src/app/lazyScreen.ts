// A screen in a chunk of its own that can be loaded before the first render
// (issue 16, first-load budget). React.lazy suspends the first time it
// renders even when its chunk is already there, and once a Suspense fallback
// has shown, React holds the content back until 300 ms after it appeared
// (its FALLBACK_THROTTLE_MS): on a phone's first load, the feed waited that
// long with every file in. A screen preload()ed before the first render
// renders at once instead, with no fallback.

import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface LazyScreen<P extends object> {
  Component: LazyExoticComponent<ComponentType<P>>;
  /** Loads the chunk; once it has, Component renders without suspending. */
  preload: () => Promise<void>;
}

/**
 * A thenable fulfilled already: then() calls back at once. React's lazy()
 * calls then() and, if that settled it, renders without suspending; it uses
 * nothing else of the Promise its types ask for.
 */
function fulfilled<T>(value: T): Promise<T> {
  const thenable = {
    then(onFulfilled: (v: T) => unknown) {
      onFulfilled(value);
    },
  };
  return thenable as unknown as Promise<T>;
}

export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const get = () => {
    loading ??= load().then(
      (c) => (loaded = c),
      (err: unknown) => {
        // A failed chunk may load on a later try (lazy's own error handling applies).
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  const Component = lazy<ComponentType<P>>(() => (loaded ? fulfilled({ default: loaded }) : get().then((m) => ({ default: m }))));
  return {
    Component,
    preload: () => get().then(() => undefined),
  };
}
