// Global styles first, so feature styles can build on them.
import './ui/theme.css';
import './ui/base.css';
import './ui/components.css';
import { createStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { feedFirstPagePath, prefetch } from './api/prefetch';
import { App } from './app/App';
import { registerServiceWorker } from './app/pwa';
import { applyTheme, effectiveThemeAtom } from './features/theme';
import { sessionAtom } from './features/auth/authAtoms';
import { FEED_PAGE_SIZE } from './constants';

const store = createStore();
// Before the first paint, so a stored choice never flashes the other theme.
applyTheme(store.get(effectiveThemeAtom));

// A signed-in visitor: the shell's chunk is asked for now rather than when
// App first renders (a few hundred ms later on a slow phone; the lazy() in
// App gets the same module), and on the feed its first page too, in
// parallel with the chunk instead of after it (api/prefetch.ts).
if (store.get(sessionAtom)) {
  void import('./app/Shell');
  if (location.pathname === '/' || location.pathname === '/feed') prefetch(feedFirstPagePath(FEED_PAGE_SIZE));
}

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root is missing from index.html');

createRoot(rootEl).render(
  <StrictMode>
    <Provider store={store}>
      <App />
    </Provider>
  </StrictMode>,
);

registerServiceWorker();
