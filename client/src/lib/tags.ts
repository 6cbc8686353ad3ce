// What a #tag is, as the server decides it (domain/tag.go): letters,
// combining marks, digits and underscores, at least one letter, at most 50;
// stored, linked and looked up lower-cased in Unicode NFC.

/** The longest tag (the server's MaxTagRunes). */
export const MAX_TAG_CHARS = 50;

const TAG_CHARS = /^[\p{L}\p{M}\p{N}_]+$/u;
const LETTER = /\p{L}/u;

/** The form of a tag (without '#'), or null when s is not one. */
export function normalizeTag(s: string): string | null {
  const t = s.trim().replace(/^#/, '').normalize('NFC').toLowerCase().normalize('NFC');
  if (!TAG_CHARS.test(t) || !LETTER.test(t) || [...t].length > MAX_TAG_CHARS) return null;
  return t;
}
