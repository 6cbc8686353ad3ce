import { useAtomValue, useSetAtom } from 'jotai';
import { useId } from 'react';
import { setThemeAtom, themeChoiceAtom, type ThemeChoice } from './themeAtoms';
import './ThemeControl.css';

// Wording of docs/product.md §2.9 (Display & accessibility): Dark mode — Off (light),
// On (dark), Automatic (device settings).
const OPTIONS: ReadonlyArray<{ value: ThemeChoice; label: string; hint: string }> = [
  { value: 'light', label: 'Off', hint: 'Light' },
  { value: 'dark', label: 'On', hint: 'Dark' },
  { value: 'auto', label: 'Automatic', hint: 'Device settings' },
];

/** Dark mode: Off / On / Automatic. */
export function ThemeControl({ className }: { className?: string }) {
  const choice = useAtomValue(themeChoiceAtom);
  const setTheme = useSetAtom(setThemeAtom);
  const name = useId();
  return (
    <fieldset className={['theme-control', className].filter(Boolean).join(' ')}>
      <legend className="theme-control__legend">Dark mode</legend>
      <div className="theme-control__options">
        {OPTIONS.map((o) => (
          <label key={o.value} className="theme-control__option">
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={choice === o.value}
              onChange={() => setTheme(o.value)}
            />
            <span className="theme-control__label">{o.label}</span>
            <span className="theme-control__hint">{o.hint}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
