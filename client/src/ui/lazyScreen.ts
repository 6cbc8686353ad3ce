// A screen in a chunk of its own that can be loaded before the first render
// (issue 16, first-load budget). React.lazy suspends the first time it
// renders even when its chunk is already there, and once a Suspense fallback
// has shown, React holds the content back until 300 ms after it appeared
// (its FALLBACK_THROTTLE_MS): on a phone's first load, the feed waited that
// long with every file in. A screen preload()ed before the first render
// renders at once instead, with no fallback.
//
// A chunk can fail to load (offline with no cached copy, or a deploy that
// replaced the hashed file names). The failure reaches the nearest
// ui/ChunkBoundary as a ChunkLoadError, and React.lazy keeps a rejected
// import for good: retryFailedLoads() (the boundary's "Try again") gives
// every screen that failed a fresh lazy component, whose next render imports
// again.

import { createElement, lazy, type ComponentType } from 'react';

export interface LazyScreen<P extends object> {
  /** Renders the screen; suspends while its chunk loads (not once preloaded). */
  Component: ComponentType<P>;
  /** Loads the chunk; once it has, Component renders without suspending. */
  preload: () => Promise<void>;
}

/** A lazy part's chunk did not load: what ui/ChunkBoundary catches (cause: the import's error). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`A part of the app could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ChunkLoadError';
  }
}

/** What retryFailedLoads() renews: the screens whose load failed since the last call. */
const failed = new Set<() => void>();

/**
 * Stylesheet links that failed to load. Vite's preload helper asks for a
 * chunk's CSS once per page: after a failure it skips it on a later import,
 * so retryFailedLoads() asks for these again itself.
 */
const failedStyles = new Set<HTMLLinkElement>();
if (typeof document !== 'undefined') {
  document.addEventListener(
    'error',
    (e) => {
      const link = e.target;
      if (link instanceof HTMLLinkElement && link.rel === 'stylesheet') failedStyles.add(link);
    },
    true, // load errors do not bubble
  );
}

/**
 * Makes the screens whose chunk failed to load import it again at their next
 * render (each gets a fresh lazy component; React.lazy never retries a
 * rejected one), and the stylesheets that failed load again.
 */
export function retryFailedLoads(): void {
  for (const renew of failed) renew();
  failed.clear();
  for (const link of failedStyles) {
    if (link.isConnected) link.replaceWith(link.cloneNode());
  }
  failedStyles.clear();
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
        // The next get() loads again; the rendered lazy component is renewed
        // only by retryFailedLoads(): renewed here, the render that follows
        // this failure would import again at once rather than show it, and
        // offline that would go on for ever.
        loading = undefined;
        failed.add(renew);
        throw new ChunkLoadError(err);
      },
    );
    return loading;
  };
  const fresh = () => lazy<ComponentType<P>>(() => (loaded ? fulfilled({ default: loaded }) : get().then((m) => ({ default: m }))));
  let current = fresh();
  const renew = () => {
    current = fresh();
  };
  // One component for the screen's lifetime (a stable type: no remount);
  // what it renders is the lazy component of the moment.
  const Component = (props: P) => createElement(current, props);
  return {
    Component,
    preload: () => get().then(() => undefined),
  };
}
