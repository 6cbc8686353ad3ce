import { useAtomValue } from 'jotai';
import { useLayoutEffect } from 'react';
import { applyTheme, effectiveThemeAtom } from './themeAtoms';

/** Keeps `<html data-theme>` equal to the effective theme (and keeps it live). */
export function useApplyTheme(): void {
  const theme = useAtomValue(effectiveThemeAtom);
  useLayoutEffect(() => {
    applyTheme(theme);
  }, [theme]);
}
