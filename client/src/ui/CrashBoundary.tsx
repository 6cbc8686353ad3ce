// Where a part of the app that failed while rendering (a bug, not a chunk
// that did not load: that is ui/ChunkBoundary's) says so, instead of React
// unmounting the whole app and leaving a blank page. Around each page (the
// bars stay usable and another page can be opened) and around the app.

import { Component, type ReactNode } from 'react';
import { reloadPage } from '../lib/redirect';

/** The alert's text. */
export const MSG_CRASH = 'Something went wrong while showing this page. Reload to try again.';

export interface CrashBoundaryProps {
  children: ReactNode;
  /** A change of it (the route, for a page) clears the alert and renders again. */
  resetKey?: unknown;
  /** Places the alert (a class beside `alert alert--error crash-error`). */
  className?: string;
}

interface State {
  failed: boolean;
}

/** Catches what its children throw while rendering; shows the alert with a Reload button. */
export class CrashBoundary extends Component<CrashBoundaryProps, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    // The console is where a user's report (and our e2e) finds what failed.
    console.error('Render failed', error);
  }

  override componentDidUpdate(prev: CrashBoundaryProps): void {
    if (this.state.failed && !Object.is(prev.resetKey, this.props.resetKey)) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className={`alert alert--error crash-error${this.props.className ? ` ${this.props.className}` : ''}`} role="alert">
        <p>{MSG_CRASH}</p>
        <div className="alert__actions">
          <button type="button" className="button button--secondary button--sm" onClick={() => reloadPage()}>
            Reload
          </button>
        </div>
      </div>
    );
  }
}
