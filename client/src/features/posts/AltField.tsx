import { MAX_ALT_LENGTH } from '../../constants';
import './AltField.css';

/**
 * An image's description field (issue 16), in the composer and the edit
 * dialog: labelled per image, at most MAX_ALT_LENGTH characters, with a
 * count once it gets near the limit.
 */
export function AltField({
  id,
  n,
  value,
  onChange,
  disabled,
}: {
  id: string;
  n: number;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
}) {
  const near = value.length > MAX_ALT_LENGTH - 100;
  return (
    <div className="alt-field">
      <label htmlFor={id} className="alt-field__label">
        Description of image {n + 1} (alt text)
      </label>
      <textarea
        id={id}
        className="alt-field__input"
        rows={2}
        maxLength={MAX_ALT_LENGTH}
        placeholder="Describe the image for people who can't see it"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        aria-describedby={near ? `${id}-count` : undefined}
      />
      {near && (
        <p id={`${id}-count`} className="alt-field__count" aria-live="polite">
          {value.length}/{MAX_ALT_LENGTH}
        </p>
      )}
    </div>
  );
}
