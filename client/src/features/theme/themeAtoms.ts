// Theme state (docs/product.md §4 Theme, §2.9): light, dark or auto (default auto, docs/product.md §9).
// The choice persists in localStorage; `auto` follows the device's
// `prefers-color-scheme` live. Only derived/action atoms are exported.

import { atom } from 'jotai';

export type ThemeChoice = 'light' | 'dark' | 'auto';
export type EffectiveTheme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['light', 'dark', 'auto'];
export const DEFAULT_THEME_CHOICE: ThemeChoice = 'auto';
export const THEME_STORAGE_KEY = 'campus.theme';
export const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isThemeChoice(v: unknown): v is ThemeChoice {
  return typeof v === 'string' && (THEME_CHOICES as readonly string[]).includes(v);
}

function readStoredChoice(): ThemeChoice {
  try {
    const v = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(v) ? v : DEFAULT_THEME_CHOICE;
  } catch {
    return DEFAULT_THEME_CHOICE; // storage blocked (privacy mode, sandboxed frame)
  }
}

function writeStoredChoice(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not persisted; the choice still applies for this page.
  }
}

function darkQuery(): MediaQueryList | undefined {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_QUERY)
    : undefined;
}

function readSystemTheme(): EffectiveTheme {
  return darkQuery()?.matches ? 'dark' : 'light';
}

// --- private primitives ------------------------------------------------------
// `null` means "not known to this store yet": the derived atoms then read the
// browser directly, so a fresh store (each page load, each test) starts from
// localStorage and the media query without a flash of the default.

const choiceAtom = atom<ThemeChoice | null>(null);
// While mounted: pick up a choice made in another tab.
choiceAtom.onMount = (set) => {
  set(readStoredChoice());
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) set(readStoredChoice());
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
};

const systemThemeBaseAtom = atom<EffectiveTheme | null>(null);
// While mounted: follow the device switching between light and dark.
systemThemeBaseAtom.onMount = (set) => {
  const mql = darkQuery();
  if (!mql) return;
  set(mql.matches ? 'dark' : 'light');
  const onChange = (e: MediaQueryListEvent) => set(e.matches ? 'dark' : 'light');
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
};

// --- public atoms ------------------------------------------------------------

/** The user's choice: 'light' | 'dark' | 'auto'. */
export const themeChoiceAtom = atom<ThemeChoice>((get) => get(choiceAtom) ?? readStoredChoice());

/** The device's preference (prefers-color-scheme), kept live while mounted. */
export const systemThemeAtom = atom<EffectiveTheme>(
  (get) => get(systemThemeBaseAtom) ?? readSystemTheme(),
);

/** The theme actually shown: the choice, or the device's preference for 'auto'. */
export const effectiveThemeAtom = atom<EffectiveTheme>((get) => {
  const choice = get(themeChoiceAtom);
  return choice === 'auto' ? get(systemThemeAtom) : choice;
});

/** Sets and persists the choice. */
export const setThemeAtom = atom(null, (_get, set, choice: ThemeChoice) => {
  if (!isThemeChoice(choice)) return;
  set(choiceAtom, choice);
  writeStoredChoice(choice);
});

/** The one-click toggle (docs/product.md §1): flips between dark and light from what is shown. */
export const toggleThemeAtom = atom(null, (get, set) => {
  set(setThemeAtom, get(effectiveThemeAtom) === 'dark' ? 'light' : 'dark');
});

/** Puts the theme on the document: `<html data-theme="light|dark">` drives the CSS variables. */
export function applyTheme(theme: EffectiveTheme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
}
