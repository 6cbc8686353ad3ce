import type { InputHTMLAttributes } from 'react';
import { SearchIcon } from './icons';
// Its styles (SearchField.css) are in the main stylesheet: main.tsx imports them.

export interface SearchFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type' | 'value'> {
  value: string;
  onChange: (value: string) => void;
  /** The accessible name (the placeholder is not one). */
  label: string;
  /** Shows a small spinner at the end (a search in flight). */
  busy?: boolean;
}

/** A search box with its magnifier: the search overlay, friends lists, suggestions. */
export function SearchField({ value, onChange, label, busy, className, ...rest }: SearchFieldProps) {
  return (
    <div className={['search-field', className].filter(Boolean).join(' ')}>
      <SearchIcon size={18} />
      <input
        className="field__input search-field__input"
        type="search"
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        {...rest}
      />
      {busy && <span className="spinner search-field__spinner" aria-hidden="true" />}
    </div>
  );
}
