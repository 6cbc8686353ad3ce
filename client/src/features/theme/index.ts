export {
  applyTheme,
  effectiveThemeAtom,
  isThemeChoice,
  setThemeAtom,
  systemThemeAtom,
  themeChoiceAtom,
  toggleThemeAtom,
  DEFAULT_THEME_CHOICE,
  THEME_STORAGE_KEY,
  type EffectiveTheme,
  type ThemeChoice,
} from './themeAtoms';
export { ThemeControl } from './ThemeControl';
export { useApplyTheme } from './useApplyTheme';
