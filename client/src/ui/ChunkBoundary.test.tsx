import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG_NETWORK, MSG_OFFLINE } from '../constants';
import { lazyScreen } from './lazyScreen';
import { setReload } from '../lib/redirect';
import { ChunkBoundary, RELOAD_GUARD_MS } from './ChunkBoundary';

function Part({ text }: { text: string }) {
  return <p>{text}</p>;
}

/** A lazy part whose import rejects (as a missing chunk's does) until succeed(). */
function flakyPart() {
  let fail = true;
  let loads = 0;
  const part = lazyScreen<{ text: string }>(() => {
    loads++;
    return fail ? Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Part-x1.js')) : Promise.resolve(Part);
  });
  return {
    Part: part.Component,
    loads: () => loads,
    succeed: () => {
      fail = false;
    },
  };
}

/** Renders a flaky part inside a boundary, as a page is. */
function renderPart(p: ReturnType<typeof flakyPart>, text = 'Friends page') {
  return render(
    <ChunkBoundary>
      <Suspense fallback={<p>Loading</p>}>
        <p.Part text={text} />
      </Suspense>
    </ChunkBoundary>,
  );
}

/** Lets the rejected import settle and React render what follows. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

function goOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

let reloads: number;
let restoreReload: () => void;

beforeEach(() => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
  // React reports each error a boundary catches.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  reloads = 0;
  restoreReload = setReload(() => reloads++);
});
afterEach(() => {
  cleanup();
  restoreReload();
});

describe('ChunkBoundary', () => {
  it('shows the no-response message in place of a part whose chunk does not load, online', async () => {
    const p = flakyPart();
    render(
      <>
        <nav>Feed Friends</nav>
        <ChunkBoundary>
          <Suspense fallback={<p>Loading</p>}>
            <p.Part text="Friends page" />
          </Suspense>
        </ChunkBoundary>
      </>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(MSG_NETWORK);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    // The rest stays.
    expect(screen.getByText('Feed Friends')).toBeTruthy();
    // The failed render shows the failure; it does not import again by itself.
    await settle();
    expect(p.loads()).toBe(1);
  });

  it('says so when the browser is offline, and changes the message when it is back', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const p = flakyPart();
    renderPart(p, 'Comments');
    expect((await screen.findByRole('alert')).textContent).toContain(MSG_OFFLINE);
    expect(screen.queryByText(MSG_NETWORK)).toBeNull();
    // Online again: the retry that comes with it fails too, and the message is the online one.
    act(() => goOnline(true));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain(MSG_NETWORK);
    expect(p.loads()).toBe(2);
  });

  it('Try again imports again and renders the part once it loads', async () => {
    const p = flakyPart();
    renderPart(p);
    await screen.findByRole('alert');
    p.succeed();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Friends page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(p.loads()).toBe(2);
    expect(reloads).toBe(0);
  });

  it('a failed Try again shows the alert again', async () => {
    const p = flakyPart();
    renderPart(p);
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain(MSG_NETWORK);
    expect(p.loads()).toBe(2);
    expect(reloads).toBe(0);
  });

  it('retries by itself when the browser comes back online', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const p = flakyPart();
    renderPart(p, 'Image viewer');
    await screen.findByText(MSG_OFFLINE);
    p.succeed();
    act(() => goOnline(true));
    expect(await screen.findByText('Image viewer')).toBeTruthy();
    expect(p.loads()).toBe(2);
  });

  it('a new resetKey (the route) clears the alert, and the failed part loads again when shown again', async () => {
    const friends = flakyPart();
    const settings = flakyPart();
    settings.succeed();
    const pages = { friends: friends.Part, settings: settings.Part };
    // As the shell's routeAtom: a new object at each navigation.
    const routes = { friends: { page: 'friends' }, settings: { page: 'settings' } };
    const Page = ({ route }: { route: 'friends' | 'settings' }) => {
      const P = pages[route];
      return <P text={`${route} page`} />;
    };
    const shell = (route: 'friends' | 'settings') => (
      <ChunkBoundary resetKey={routes[route]}>
        <Suspense fallback={<p>Loading</p>}>
          <Page route={route} />
        </Suspense>
      </ChunkBoundary>
    );
    const { rerender } = render(shell('friends'));
    await screen.findByRole('alert');
    rerender(shell('settings'));
    expect(await screen.findByText('settings page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // Back to the page that failed: it is imported again, not shown failed from before.
    friends.succeed();
    rerender(shell('friends'));
    expect(await screen.findByText('friends page')).toBeTruthy();
    expect(friends.loads()).toBe(2);
  });

  it('a part shown again after its boundary went away loads again; Close dismisses a dialog', async () => {
    const p = flakyPart();
    const onDismiss = vi.fn();
    const ui = (open: boolean) =>
      open && (
        <ChunkBoundary onDismiss={onDismiss}>
          <Suspense fallback={null}>
            <p.Part text="Edit post dialog" />
          </Suspense>
        </ChunkBoundary>
      );
    const { rerender } = render(ui(true));
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    rerender(ui(false));
    p.succeed();
    rerender(ui(true));
    expect(await screen.findByText('Edit post dialog')).toBeTruthy();
    expect(p.loads()).toBe(2);
  });

  it('reloads the page at the second failed Try again while online, once per guard period', async () => {
    const p = flakyPart();
    const { unmount } = renderPart(p);
    await screen.findByRole('alert');
    const tryAgain = async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      await settle();
      await screen.findByRole('alert');
    };
    // Offline failures are not the chunk's absence: they do not count.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await tryAgain();
    await tryAgain();
    expect(reloads).toBe(0);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    await tryAgain();
    expect(reloads).toBe(0);
    await tryAgain();
    expect(reloads).toBe(1);
    unmount();

    // The reloaded page (same tab, within the guard period) fails the same way: no second reload.
    renderPart(p);
    await screen.findByRole('alert');
    await tryAgain();
    await tryAgain();
    await tryAgain();
    expect(reloads).toBe(1);
    expect(screen.getByRole('alert').textContent).toContain(MSG_NETWORK);
    expect(Number(sessionStorage.getItem('campus.chunkReload'))).toBeGreaterThan(Date.now() - RELOAD_GUARD_MS);
  });

  it('lets any other error go on up', async () => {
    function Broken(): ReactNode {
      throw new Error('a bug, not a chunk');
    }
    class Outer extends Component<{ children: ReactNode }, { error: string | null }> {
      override state = { error: null as string | null };
      static getDerivedStateFromError(e: Error) {
        return { error: e.message };
      }
      override render() {
        return this.state.error ?? this.props.children;
      }
    }
    render(
      <Outer>
        <ChunkBoundary>
          <Broken />
        </ChunkBoundary>
      </Outer>,
    );
    expect(await screen.findByText('a bug, not a chunk')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
