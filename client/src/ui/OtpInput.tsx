import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { OTP_LENGTH } from '../constants';
import './OtpInput.css';

export interface OtpInputProps {
  /** The digits typed so far (positions may be blank: ' '). */
  value: string;
  onChange: (value: string) => void;
  length?: number;
  disabled?: boolean;
  autoFocus?: boolean;
  label?: string;
}

/** Pads/cuts a value to one character per box (' ' for an empty box). */
export function toBoxes(value: string, length: number = OTP_LENGTH): string[] {
  return Array.from({ length }, (_, i) => {
    const c = value.charAt(i);
    return /[0-9]/.test(c) ? c : ' ';
  });
}

/** The digits of the boxes, '' if any is empty. */
export function filledCode(value: string, length: number = OTP_LENGTH): string {
  const boxes = toBoxes(value, length);
  return boxes.every((c) => c !== ' ') ? boxes.join('') : '';
}

/**
 * Code entry as single-digit boxes (docs/product.md §5): digits only, typing advances,
 * Backspace on an empty box moves back, pasting a code fills the boxes.
 */
export function OtpInput({ value, onChange, length = OTP_LENGTH, disabled, autoFocus, label = 'Verification code' }: OtpInputProps) {
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const boxes = toBoxes(value, length);
  const emit = (next: string[]) => onChange(next.join('').replace(/\s+$/, ''));
  const focus = (i: number) => refs.current[Math.max(0, Math.min(length - 1, i))]?.focus();

  const setDigit = (i: number, raw: string) => {
    const digits = raw.replace(/\D/g, '');
    if (digits === '') return;
    const next = [...boxes];
    // Typing into a filled box (or a mobile keyboard's autofill) may deliver several digits.
    for (let k = 0; k < digits.length && i + k < length; k++) next[i + k] = digits[k]!;
    emit(next);
    focus(i + digits.length);
  };

  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault();
      const next = [...boxes];
      if (next[i] !== ' ') {
        next[i] = ' ';
        emit(next);
      } else if (i > 0) {
        next[i - 1] = ' ';
        emit(next);
        focus(i - 1);
      }
    } else if (e.key === 'ArrowLeft') {
      focus(i - 1);
    } else if (e.key === 'ArrowRight') {
      focus(i + 1);
    }
  };

  const onPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    setDigit(i, e.clipboardData.getData('text'));
  };

  return (
    <div className="otp-input" role="group" aria-label={label}>
      {boxes.map((c, i) => (
        <input
          key={i}
          ref={(el) => {
            refs.current[i] = el;
          }}
          className="otp-input__box"
          type="text"
          inputMode="numeric"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          maxLength={length}
          aria-label={`Digit ${i + 1}`}
          value={c === ' ' ? '' : c}
          disabled={disabled}
          autoFocus={autoFocus && i === 0}
          onChange={(e) => {
            const v = e.target.value;
            if (v === '') {
              // Some mobile keyboards delete without a Backspace keydown.
              const next = [...boxes];
              next[i] = ' ';
              emit(next);
              return;
            }
            // Typing into a filled box gives old + new digit: keep the new one.
            setDigit(i, c !== ' ' && v.length > 1 ? v.replace(c, '') : v);
          }}
          onKeyDown={(e) => onKeyDown(i, e)}
          onPaste={(e) => onPaste(i, e)}
          onFocus={(e) => e.target.select()}
        />
      ))}
    </div>
  );
}
