// The client's layers, checked by its imports. Lowest first:
//
//   constants.ts → lib/ → ui/ → api/ → features/ → app/ → main.tsx
//
// A module may import its own layer and the layers below it, never one above:
// lib/ is code with no React (the router is there), ui/ the shared
// components, api/ the server's protocol and calls, features/ the screens
// with their atoms, app/ the wiring (the shell, the socket's frames into the
// features). Within features/, each feature is a sub-layer of its own, in
// FEATURES' order: a feature may import the features before it and never one
// after it, so no two features import each other. sw/ (the service worker, a
// bundle of its own) may import only constants.ts and lib/, and nothing
// imports it. test/ holds test helpers: tests may import them, nothing else
// may. Tests obey the same rule as the code beside them, so a test of the
// app's wiring lives in app/.

import ts from 'typescript';
import { expect, test } from 'vitest';

/** The layers, lowest first. */
const LAYERS = ['constants', 'lib', 'ui', 'api', 'features', 'app', 'main'] as const;

/**
 * The features, lowest first: each may import only the ones before it.
 * A new feature goes after everything it imports.
 */
const FEATURES = [
  'theme',
  'realtime',
  'push',
  'auth',
  'friends',
  'onboarding',
  'search',
  'mentions',
  'safety',
  'moderation',
  'posts',
  'notifications',
  'tags',
  'feed',
  'groups',
  'messages',
  'profile',
  'settings',
  'admin',
] as const;

/** Every module under src/, by path relative to src/ ("api/socket.ts"). */
const sources: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.d.ts'], { query: '?raw', import: 'default', eager: true }),
  ).map(([path, text]) => [path.slice(2), text]),
);

interface Place {
  /** One of LAYERS, or 'sw' / 'test' (outside the stack). */
  layer: string;
  /** The feature's name, for a module under features/. */
  feature?: string;
}

/** Where a path relative to src/ sits; undefined for one outside src/. */
function placeOf(path: string): Place | undefined {
  const [top, sub] = path.split('/');
  if (top === undefined || top === '..') return undefined;
  if (path === 'constants' || path === 'constants.ts') return { layer: 'constants' };
  if (path === 'main' || path === 'main.tsx') return { layer: 'main' };
  if (top === 'features') return { layer: 'features', feature: sub };
  return { layer: top };
}

/** The relative import specifiers of a module: static, export … from, side-effect and dynamic import(). */
function importsOf(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** A specifier resolved against the importing module's folder, relative to src/. */
function resolve(from: string, spec: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const p of spec.split('/')) {
    if (p === '.' || p === '') continue;
    if (p === '..') {
      if (parts.length === 0) parts.push('..');
      else if (parts[parts.length - 1] === '..') parts.push('..');
      else parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}

const isTest = (path: string) => /\.test\.tsx?$/.test(path);
const rank = (layer: string) => (LAYERS as readonly string[]).indexOf(layer);
const featureRank = (f: string | undefined) => (FEATURES as readonly string[]).indexOf(f ?? '');

/** Why `from` may not import `to`, or undefined if it may. */
function violation(from: string, fromPlace: Place, toPlace: Place | undefined): string | undefined {
  if (!toPlace) return 'outside src/';
  const a = fromPlace.layer;
  const b = toPlace.layer;
  if (b === 'test') return a === 'test' || isTest(from) ? undefined : `${a} imports test helpers`;
  if (b === 'sw') return a === 'sw' ? undefined : `${a} imports the service worker`;
  if (a === 'test') return undefined;
  if (a === 'sw') return b === 'constants' || b === 'lib' ? undefined : `sw imports ${b}`;
  if (rank(a) < 0) return `${a} is not a layer`;
  if (rank(b) < 0) return `${b} is not a layer`;
  if (rank(b) > rank(a)) return `${a} imports ${b}, a layer above it`;
  if (a === 'features' && b === 'features' && fromPlace.feature !== toPlace.feature) {
    const fa = featureRank(fromPlace.feature);
    const fb = featureRank(toPlace.feature);
    if (fa < 0) return `feature ${fromPlace.feature} is not in FEATURES`;
    if (fb < 0) return `feature ${toPlace.feature} is not in FEATURES`;
    if (fb > fa) return `feature ${fromPlace.feature} imports feature ${toPlace.feature}, after it in FEATURES`;
  }
  return undefined;
}

test('the checker sees the sources and their imports', () => {
  // A glob or parser gone wrong would pass every rule below on nothing.
  // (The glob leaves out this file itself.)
  expect(Object.keys(sources)).toEqual(expect.arrayContaining(['main.tsx', 'constants.ts', 'api/socket.ts', 'features/posts/PostCard.tsx']));
  expect(Object.keys(sources).length).toBeGreaterThan(100);
  expect(importsOf("import type { A } from './a';\nexport * from '../b';\nimport './c.css';\nconst d = () => import('../d');\n// import '../e'"))
    .toEqual(['./a', '../b', './c.css', '../d']);
  expect(resolve('features/posts/PostCard.tsx', '../../app/navigation')).toBe('app/navigation');
  expect(resolve('api/socket.ts', '../constants')).toBe('constants');
  expect(resolve('main.tsx', '../e2e/x')).toBe('../e2e/x');
});

test('the rule itself', () => {
  const at = (path: string) => placeOf(path) as Place;
  const cases: [string, string, boolean][] = [
    ['lib/a.ts', 'constants', true],
    ['ui/a.tsx', 'lib/b', true],
    ['ui/a.tsx', 'api/http', false],
    ['api/socket.ts', 'features/posts/postsAtoms', false],
    ['features/feed/FeedPage.tsx', 'features/posts/PostCard', true],
    ['features/posts/PostCard.tsx', 'features/feed/feedAtoms', false],
    ['features/posts/PostCard.tsx', 'app/navigation', false],
    ['app/App.tsx', 'features/auth/AuthFlow', true],
    ['main.tsx', 'app/App', true],
    ['ui/a.test.tsx', 'test/fakeFetch', true],
    ['ui/a.tsx', 'test/fakeFetch', false],
    ['app/App.tsx', 'sw/sw', false],
    ['sw/sw.ts', 'lib/a', true],
    ['sw/sw.ts', 'api/http', false],
  ];
  for (const [from, to, ok] of cases) {
    expect(violation(from, at(from), placeOf(to)) === undefined, `${from} → ${to}`).toBe(ok);
  }
});

test('FEATURES lists every feature folder, once', () => {
  const folders = new Set(Object.keys(sources).flatMap((p) => (p.startsWith('features/') ? [p.split('/')[1]] : [])));
  expect([...FEATURES].sort()).toEqual([...folders].sort());
});

test('no module imports from a layer above its own', () => {
  const found: string[] = [];
  for (const [path, text] of Object.entries(sources)) {
    const place = placeOf(path);
    if (!place) continue;
    for (const spec of importsOf(text)) {
      const why = violation(path, place, placeOf(resolve(path, spec)));
      if (why) found.push(`${path} → ${spec} (${why})`);
    }
  }
  expect(found.sort(), `${found.length} import(s) break the layers`).toEqual([]);
});
