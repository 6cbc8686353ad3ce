import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { minifySync, type Plugin, type Rolldown } from 'vite';
import { defineConfig } from 'vitest/config';
import { boot, feedFirstPagePath, type BootAssets, type BootPlan } from './src/api/boot.ts';
import { paint } from './src/api/paint.ts';
import { paintPlan } from './src/api/paintPlan.ts';
import { API_BASE, FEED_PAGE_SIZE } from './src/constants.ts';
import { STORAGE_KEYS } from './src/lib/storageKeys.ts';
import { FULL_DATE_OPTIONS } from './src/lib/time.ts';

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

const publicDir = fileURLToPath(new URL('public/', import.meta.url));

/** Every file under dir, as site paths ("/icons/icon-192.png"). */
function publicFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? publicFiles(p) : ['/' + relative(publicDir, p).split('\\').join('/')];
  });
}

/**
 * Builds the service worker (src/sw/sw.ts) to /sw.js — a fixed name, since a
 * worker's URL must not change between deploys — and writes into it the list
 * of the build's files it precaches, with their hash as the cache version:
 * every deploy that changes a file changes sw.js, which is how browsers
 * notice the new version.
 */
function precachePlugin(): Plugin {
  return {
    name: 'campus-precache',
    apply: 'build',
    generateBundle(_options, bundle) {
      const worker = Object.values(bundle).find((f) => f.type === 'chunk' && f.name === 'sw');
      if (!worker || worker.type !== 'chunk') return;
      const files = [
        '/index.html',
        ...Object.keys(bundle)
          .filter((f) => f !== worker.fileName && f !== 'index.html' && !f.endsWith('.map'))
          .map((f) => '/' + f),
        ...publicFiles(publicDir),
      ].sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      const placeholder = /(["'`])__CAMPUS_PRECACHE__\1/;
      if (!placeholder.test(worker.code)) this.error('sw.ts lost its __CAMPUS_PRECACHE__ placeholder');
      worker.code = worker.code.replace(placeholder, JSON.stringify(JSON.stringify({ version, files })));
    },
  };
}

/**
 * The files a lazy screen needs before it can render: its chunk, the chunks
 * it imports statically (not the entry's: index.html loads those), and
 * their stylesheets — what Vite's preload helper asks for when the screen is
 * imported.
 */
function screenAssets(bundle: Rolldown.OutputBundle, source: string): BootAssets {
  const chunks = Object.values(bundle).filter((f): f is Rolldown.OutputChunk => f.type === 'chunk');
  const start = chunks.find((c) => c.facadeModuleId?.endsWith(source));
  if (!start) throw new Error(`campus-boot: no chunk for ${source}`);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const scripts: string[] = [];
  const styles: string[] = [];
  const seen = new Set<string>();
  const visit = (c: Rolldown.OutputChunk) => {
    if (seen.has(c.fileName) || c.isEntry) return;
    seen.add(c.fileName);
    scripts.push('/' + c.fileName);
    for (const css of c.viteMetadata?.importedCss ?? []) if (!styles.includes('/' + css)) styles.push('/' + css);
    for (const name of c.imports) {
      const dep = byName.get(name);
      if (dep) visit(dep);
    }
  };
  visit(start);
  return { scripts, styles };
}

/**
 * Writes index.html's bootstrap (src/api/boot.ts) into its head at build,
 * with the hashed names of the signed-in shell's and the sign-in screen's
 * files. It goes before the stylesheet link: an inline script waits for the
 * stylesheets above it, which would start its requests one round trip late.
 */
function bootPlugin(): Plugin {
  return {
    name: 'campus-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const feedPath = feedFirstPagePath(FEED_PAGE_SIZE);
        const plan: BootPlan = {
          shell: screenAssets(ctx.bundle, '/src/app/Shell.tsx'),
          signedOut: screenAssets(ctx.bundle, '/src/features/auth/AuthFlow.tsx'),
          feed: { path: feedPath, url: API_BASE + feedPath, routes: ['/', '/feed'] },
          keys: { token: STORAGE_KEYS.token, auth: STORAGE_KEYS.auth, onboarding: STORAGE_KEYS.onboarding },
          fullDate: FULL_DATE_OPTIONS,
          firstPage: { id: FIRST_PAGE_DATA_ID, forget: API_BASE + '/auth/first-page' },
        };
        const min = minifySync('boot.js', `(${boot.toString()})(window,${JSON.stringify(plan)})`);
        if (min.errors.length > 0) throw new Error(`campus-boot: ${min.errors[0]?.message}`);
        const script = min.code.trim();
        if (script.includes('</')) throw new Error('campus-boot: the bootstrap would end its own <script>');
        const at = html.indexOf('<title>');
        if (at < 0) throw new Error('campus-boot: index.html has no <title>');
        return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}

/**
 * The build's first-page template (httpapi/firstpage.go reads it; the
 * service worker's list, made before it is written, leaves it out), the
 * marker where the server puts the page's data, and the data block's id.
 */
const FIRST_PAGE_TEMPLATE = 'first-page.html';
const FIRST_PAGE_MARKER = '<!--campus:first-page-->';
const FIRST_PAGE_DATA_ID = 'campus-first-page';

/**
 * Writes the feed's first-page document (issue 27): index.html with the
 * main stylesheet and the signed-in shell's inline — no stylesheet request
 * stands between the document and its first paint — a marker where the
 * server puts the page's data, above the bootstrap that reads it, and the
 * painter (src/api/paint.ts) after the root it paints into. The server
 * serves it, with the viewer's first page, for the feed's paths, and allows
 * its inline script and style by their hashes.
 */
function firstPagePlugin(): Plugin {
  return {
    name: 'campus-first-page',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (!index || index.type !== 'asset' || typeof index.source !== 'string') return this.error('campus-first-page: no index.html');
        let html = index.source;
        const css = (file: string) => {
          const f = bundle[file.replace(/^\//, '')];
          if (!f || f.type !== 'asset') return this.error(`campus-first-page: no ${file}`);
          return typeof f.source === 'string' ? f.source : new TextDecoder().decode(f.source);
        };
        const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>\n?\s*/g)];
        if (links.length !== 1) return this.error(`campus-first-page: index.html has ${links.length} stylesheets, want 1`);
        const styles = [links[0]![1]!, ...screenAssets(bundle, '/src/app/Shell.tsx').styles].map(css).join('\n');
        if (/<\/style/i.test(styles)) return this.error('campus-first-page: a stylesheet would end its own <style>');
        html = html.replace(links[0]![0], '').replace('</head>', `  <style>${styles}</style>\n  </head>`);
        // Above the bootstrap (the one inline script without attributes).
        const at = html.indexOf('<script>');
        if (at < 0) return this.error('campus-first-page: index.html has no bootstrap');
        html = `${html.slice(0, at)}${FIRST_PAGE_MARKER}${html.slice(at)}`;
        const plan = paintPlan();
        // The plan goes in after minifying, with "<\/" for the icons' "</"
        // (which the minifier would print back): a script's text must never
        // hold "</".
        const min = minifySync('paint.js', `(${paint.toString()})(window,__CAMPUS_PAINT_PLAN__)`);
        if (min.errors.length > 0) return this.error(`campus-first-page: ${min.errors[0]?.message}`);
        if (min.code.split('__CAMPUS_PAINT_PLAN__').length !== 2) return this.error('campus-first-page: the minifier moved the plan');
        const script = min.code.trim().replace('__CAMPUS_PAINT_PLAN__', () => JSON.stringify(plan).replaceAll('</', '<\\/'));
        if (script.includes('</')) return this.error('campus-first-page: the painter would end its own <script>');
        const root = '<div id="root"></div>';
        if (!html.includes(root)) return this.error('campus-first-page: index.html has no root');
        html = html.replace(root, `${root}\n    <script>${script}</script>`);
        this.emitFile({ type: 'asset', fileName: FIRST_PAGE_TEMPLATE, source: html });
      },
    },
  };
}

/**
 * Marks the first screens' chunks for eager compilation (V8's explicit
 * compile hints, Chrome 136+; other engines read a comment). V8 compiles a
 * function when it is first called, on the main thread; nearly every
 * function of these chunks runs in the first render, so that was a steady
 * ~80 ms (CPU ×4) of the feed's first load after its chunks had arrived. A
 * marked file is compiled whole off the main thread while it downloads. The
 * comment must open the file, so it goes in after Vite's own preamble; the
 * file names (hashed before) do not change with it, which is fine: the hint
 * is the same in every build.
 */
function compileHintPlugin(): Plugin {
  const names = new Set(['index', 'Shell', 'common', 'AuthFlow', 'auth-common']);
  return {
    name: 'campus-compile-hint',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const f of Object.values(bundle)) {
          if (f.type !== 'chunk' || !names.has(f.name)) continue;
          f.code = '//# allFunctionsCalledOnLoad\n' + f.code;
          // The code moved down a line.
          if (f.map) f.map.mappings = ';' + f.map.mappings;
        }
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precachePlugin(), bootPlugin(), compileHintPlugin(), firstPagePlugin()],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    rollupOptions: {
      input: { index: fileURLToPath(new URL('index.html', import.meta.url)), sw: fileURLToPath(new URL('src/sw/sw.ts', import.meta.url)) },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        // The small modules the lazy screens share would each be a chunk of
        // their own (0.1–3 KB, most with a stylesheet): a dozen requests
        // that, over HTTP/1.1's six connections per host, came in a second
        // wave behind the shell's chunk on a slow phone. One chunk each for
        // the signed-in screens' and the signed-out screens' shared parts
        // (only modules the main chunk does not import: a group takes a
        // module out of the entry too).
        codeSplitting: {
          // Only the named modules: their dependencies stay where they were
          // (many are the main chunk's).
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'common',
              test: /\/src\/(ui\/(Modal|SearchField|Avatar|Skeleton|useOutsideClick)\.|lib\/(scroll|navigation|srcset|tags)\.|features\/(friends\/friendsApi|moderation\/moderationApi|posts\/watchAtoms)\.)tsx?$/,
            },
            {
              name: 'auth-common',
              test: /\/src\/(features\/auth\/(AuthCard|useCooldown|signupHandoff)\.|features\/onboarding\/profileApi\.|lib\/imageFiles\.)tsx?$/,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
