// Where a lazily loaded part of the app (ui/lazyScreen) that could not be
// loaded shows it: in its own place, with the rest of the app still working.
// It lives in the main chunk (App uses it), so it never needs a chunk itself.

import { Component, type ReactNode } from 'react';
import { MSG_NETWORK, MSG_OFFLINE } from '../constants';
import { useOnline, useRetryWhenOnline } from './connectivity';
import { ChunkLoadError, retryFailedLoads } from './lazyScreen';
import { reloadPage } from '../lib/redirect';
import { readString, STORAGE_KEYS, writeString } from '../lib/storage';

/**
 * The reload rule. A chunk that still fails on a "Try again" while the
 * browser says it is online is most likely gone: a deploy replaced the
 * hashed file names, and only a reload (new index.html, new names) brings
 * the part back. The first failed "Try again" may still be a flaky network,
 * so it is the second failed one, while online, that reloads the page. Only
 * a click does it (never the automatic retry when the browser comes back
 * online), and at most once per RELOAD_GUARD_MS in a tab (sessionStorage):
 * if the reloaded page fails too, the alert stays and "Try again" retries.
 */
export const FAILED_RETRIES_BEFORE_RELOAD = 2;
export const RELOAD_GUARD_MS = 60_000;

/** True when this tab may reload now (and it is noted); false if it did within RELOAD_GUARD_MS or storage is blocked. */
function claimReload(): boolean {
  const now = Date.now();
  const last = Number(readString(STORAGE_KEYS.chunkReload));
  if (last > 0 && now - last < RELOAD_GUARD_MS) return false;
  const stamp = String(now);
  writeString(STORAGE_KEYS.chunkReload, stamp);
  // Not kept (storage blocked): nothing would stop the next page reloading again.
  return readString(STORAGE_KEYS.chunkReload) === stamp;
}

interface ChunkErrorProps {
  className: string | undefined;
  onRetry: (byUser: boolean) => void;
  onDismiss: (() => void) | undefined;
}

/** The alert: docs/product.md §8.1's no-response message (offline or online, live), Try again, and Close for a dialog. */
function ChunkError({ className, onRetry, onDismiss }: ChunkErrorProps) {
  const online = useOnline();
  useRetryWhenOnline(() => onRetry(false));
  return (
    <div className={`alert alert--error chunk-error${className ? ` ${className}` : ''}`} role="alert">
      <p>{online ? MSG_NETWORK : MSG_OFFLINE}</p>
      <div className="alert__actions">
        <button type="button" className="button button--secondary button--sm" onClick={() => onRetry(true)}>
          Try again
        </button>
        {onDismiss && (
          <button type="button" className="button button--secondary button--sm" onClick={onDismiss}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}

export interface ChunkBoundaryProps {
  children: ReactNode;
  /** A change of it (the route, for a page) clears the alert and loads again. */
  resetKey?: unknown;
  /** Places the alert (a class beside `alert alert--error chunk-error`). */
  className?: string;
  /** A dialog's close: a Close button beside Try again. */
  onDismiss?: () => void;
}

interface State {
  /** What the part threw, boxed (a thrown null is an error too). */
  failure: { error: unknown } | null;
}

/**
 * Goes around a Suspense that renders lazy parts. A part whose chunk fails
 * to load (ChunkLoadError) shows the alert here instead of unmounting the
 * app; Try again, the browser coming back online, a new resetKey, or the
 * part being shown again later (this boundary unmounted and mounted again)
 * imports it again. Any other error is not a chunk's: it goes on up.
 */
export class ChunkBoundary extends Component<ChunkBoundaryProps, State> {
  override state: State = { failure: null };
  /** The error that follows is the answer to a click on Try again. */
  private retriedByUser = false;
  /** Failed clicks on Try again while online (the reload rule). */
  private failedRetries = 0;

  static getDerivedStateFromError(error: unknown): State {
    return { failure: { error } };
  }

  override componentDidCatch(error: unknown): void {
    const byUser = this.retriedByUser;
    this.retriedByUser = false;
    if (!(error instanceof ChunkLoadError) || !byUser || !navigator.onLine) return;
    this.failedRetries++;
    if (this.failedRetries >= FAILED_RETRIES_BEFORE_RELOAD && claimReload()) reloadPage();
  }

  override componentDidUpdate(prev: ChunkBoundaryProps): void {
    if (Object.is(prev.resetKey, this.props.resetKey)) return;
    this.failedRetries = 0;
    this.retriedByUser = false;
    if (this.state.failure) this.retry(false);
  }

  override componentWillUnmount(): void {
    // Shown again later (comments reopened, a dialog opened again), the part loads again.
    if (this.state.failure) retryFailedLoads();
  }

  private retry = (byUser: boolean): void => {
    retryFailedLoads();
    this.retriedByUser = byUser;
    this.setState({ failure: null });
  };

  override render(): ReactNode {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    if (!(failure.error instanceof ChunkLoadError)) throw failure.error;
    return <ChunkError className={this.props.className} onRetry={this.retry} onDismiss={this.props.onDismiss} />;
  }
}
