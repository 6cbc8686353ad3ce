import { createStore } from 'jotai';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeMatchMedia } from '../../test/fakeMatchMedia';
import {
  applyTheme,
  effectiveThemeAtom,
  setThemeAtom,
  systemThemeAtom,
  themeChoiceAtom,
  THEME_STORAGE_KEY,
  toggleThemeAtom,
} from './themeAtoms';

beforeEach(() => {
  localStorage.clear();
});

describe('theme choice', () => {
  it('defaults to auto', () => {
    installFakeMatchMedia(false);
    const store = createStore();
    expect(store.get(themeChoiceAtom)).toBe('auto');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('persists a choice to localStorage', () => {
    installFakeMatchMedia(false);
    const store = createStore();
    store.set(setThemeAtom, 'dark');
    expect(store.get(themeChoiceAtom)).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    store.set(setThemeAtom, 'auto');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('auto');
  });

  it('reads the stored choice in a new store (next page load)', () => {
    installFakeMatchMedia(false);
    createStore().set(setThemeAtom, 'light');
    const next = createStore();
    expect(next.get(themeChoiceAtom)).toBe('light');
  });

  it('ignores a stored value that is not a choice', () => {
    installFakeMatchMedia(false);
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(createStore().get(themeChoiceAtom)).toBe('auto');
  });

  it('picks up a choice made in another tab while mounted', () => {
    installFakeMatchMedia(false);
    const store = createStore();
    const unsub = store.sub(themeChoiceAtom, () => {});
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'dark' }));
    expect(store.get(themeChoiceAtom)).toBe('dark');
    unsub();
  });
});

describe('effective theme', () => {
  it('follows the device in auto', () => {
    installFakeMatchMedia(true);
    const store = createStore();
    expect(store.get(systemThemeAtom)).toBe('dark');
    expect(store.get(effectiveThemeAtom)).toBe('dark');
  });

  it('follows prefers-color-scheme live while mounted', () => {
    const media = installFakeMatchMedia(false);
    const store = createStore();
    const seen: string[] = [];
    const unsub = store.sub(effectiveThemeAtom, () => seen.push(store.get(effectiveThemeAtom)));
    expect(store.get(effectiveThemeAtom)).toBe('light');
    expect(media.listenerCount()).toBe(1);

    media.setDark(true);
    expect(store.get(effectiveThemeAtom)).toBe('dark');
    media.setDark(false);
    expect(store.get(effectiveThemeAtom)).toBe('light');
    expect(seen).toEqual(['dark', 'light']);

    unsub();
    expect(media.listenerCount()).toBe(0);
  });

  it('is the fixed choice when light or dark, whatever the device says', () => {
    const media = installFakeMatchMedia(true);
    const store = createStore();
    const unsub = store.sub(effectiveThemeAtom, () => {});
    store.set(setThemeAtom, 'light');
    expect(store.get(effectiveThemeAtom)).toBe('light');
    media.setDark(false);
    media.setDark(true);
    expect(store.get(effectiveThemeAtom)).toBe('light');

    store.set(setThemeAtom, 'dark');
    media.setDark(false);
    expect(store.get(effectiveThemeAtom)).toBe('dark');

    store.set(setThemeAtom, 'auto');
    expect(store.get(effectiveThemeAtom)).toBe('light');
    unsub();
  });

  it('works without matchMedia (light)', () => {
    // No fake installed and the environment's one removed.
    const original = window.matchMedia;
    // @ts-expect-error simulate a browser without matchMedia
    delete window.matchMedia;
    try {
      const store = createStore();
      expect(store.get(effectiveThemeAtom)).toBe('light');
    } finally {
      window.matchMedia = original;
    }
  });
});

describe('toggle and apply', () => {
  it('toggles between dark and light from what is shown', () => {
    installFakeMatchMedia(true);
    const store = createStore();
    store.set(toggleThemeAtom); // auto showing dark → light
    expect(store.get(themeChoiceAtom)).toBe('light');
    store.set(toggleThemeAtom);
    expect(store.get(themeChoiceAtom)).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });

  it('puts the effective theme on <html data-theme>', () => {
    applyTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    applyTheme('light');
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
  });
});
