import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Only what this file needs from Node's globals (the app's tsconfig has no Node types).
declare const process: { env: Record<string, string | undefined> };

// The Go server (`campus serve`) listens here during development. It serves the
// JSON API under /api (websocket at /api/ws) and uploaded files under /media.
// CAMPUS_DEV_BACKEND points the dev server at another node, e.g. http://127.0.0.1:8081.
const backend = process.env.CAMPUS_DEV_BACKEND || 'http://127.0.0.1:8080';

const proxy = {
  '/api': { target: backend, ws: true },
  '/media': { target: backend },
};

export default defineConfig({
  plugins: [react()],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
