// Global styles first, so feature styles can build on them.
import './ui/theme.css';
import './ui/base.css';
import './ui/components.css';
// The shared ui modules' styles (their modules are the lazy screens' "common"
// chunk, vite.config.ts): here they come in the main stylesheet, so that
// chunk has no stylesheet of its own — one request fewer on the first load,
// where HTTP/1.1's six connections per host are all taken (issue 16).
import './ui/Avatar.css';
import './ui/Modal.css';
import './ui/SearchField.css';
import './ui/Skeleton.css';
import { createStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { adoptBootFetches, bootHandoff, feedFirstPagePath, keepFirstPageCookie, prefetch } from './api/prefetch';
import { App, preloadFirstScreen } from './app/App';
import { registerServiceWorker } from './app/pwa';
import { applyTheme, effectiveThemeAtom } from './features/theme';
import { sessionAtom } from './features/auth/authAtoms';
import { FEED_PAGE_SIZE } from './constants';
import { captureInstallPrompt } from './lib/install';
import { afterPaint } from './lib/afterPaint';

// The browser's install prompt may come before the app renders: keep it (issue 27).
captureInstallPrompt();

const store = createStore();
// Before the first paint, so a stored choice never flashes the other theme.
applyTheme(store.get(effectiveThemeAtom));

// The first screen's chunk (the shell, signed in) is asked for now rather
// than when App first renders, and on the feed its first page too, in
// parallel with the chunk instead of after it (api/prefetch.ts). Both are
// usually under way already, started by index.html's bootstrap (api/boot.ts):
// these find them. On the feed the document may have carried its first page
// (issue 27), painted already (api/paint.ts).
const boot = bootHandoff();
adoptBootFetches();
const firstScreen = preloadFirstScreen(store);
const onFeed = Boolean(store.get(sessionAtom)) && (location.pathname === '/' || location.pathname === '/feed');
if (onFeed) {
  prefetch(feedFirstPagePath(FEED_PAGE_SIZE));
  // No first page in the document: this browser has no first-page cookie
  // for this session yet (a sign-in from before there was one).
  if (!boot.firstPage) afterPaint(keepFirstPageCookie);
}

/**
 * How long the first render waits for the first screen's chunk. Rendered
 * with it, the screen shows at once; rendered before, React shows the
 * loading fallback and then holds the screen back until 300 ms after that
 * (ui/lazyScreen.ts). With the bootstrap's preload the chunk is usually in
 * within a few tens of ms of this one; without it, the fallback shows.
 */
const FIRST_SCREEN_WAIT_MS = 200;

/**
 * Over a painted first page the app waits for its first screen whole:
 * rendered before, React would put the loading fallback in the painted
 * page's place. Bounded, so that a chunk that never settles ends in the
 * app's own error screen rather than a page that does nothing.
 */
const PAINTED_FIRST_SCREEN_WAIT_MS = 15_000;

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root is missing from index.html');

const render = () =>
  createRoot(rootEl).render(
    <StrictMode>
      <Provider store={store}>
        <App />
      </Provider>
    </StrictMode>,
  );
// A chunk that fails to load fails again, visibly, when App renders it.
const wait = boot.painted ? PAINTED_FIRST_SCREEN_WAIT_MS : FIRST_SCREEN_WAIT_MS;
void Promise.race([firstScreen.catch(() => {}), new Promise((resolve) => setTimeout(resolve, wait))]).then(render);

registerServiceWorker();
