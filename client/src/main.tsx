// Global styles first, so feature styles can build on them.
import './ui/theme.css';
import './ui/base.css';
import './ui/components.css';
import { createStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { registerServiceWorker } from './app/pwa';
import { applyTheme, effectiveThemeAtom } from './features/theme';

const store = createStore();
// Before the first paint, so a stored choice never flashes the other theme.
applyTheme(store.get(effectiveThemeAtom));

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
