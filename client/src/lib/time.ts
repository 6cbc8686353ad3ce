// Relative times ('5 minutes ago', docs/product.md §2.11), and a full date for tooltips.

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

export function relativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const seconds = Math.round((now - t) / 1000);
  if (seconds < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

/** How fullDate writes a date (index.html's bootstrap warms the formatter with it: api/boot.ts). */
export const FULL_DATE_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

// One formatter for every call: toLocaleString with options builds one each time.
let fullDateFormat: Intl.DateTimeFormat | undefined;

export function fullDate(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  fullDateFormat ??= new Intl.DateTimeFormat(undefined, FULL_DATE_OPTIONS);
  return fullDateFormat.format(t);
}
