// The @mention being typed in a text field (issue 27): where it is, what it
// asks for, and the text once a person is picked. The rule for where a
// mention may start is the one lib/richText.ts reads mentions by, so what the
// typeahead inserts is what posts show as a link.

/** The @mention around the caret: text[start] is the @, text[start+1..end) the name so far. */
export interface MentionToken {
  start: number;
  end: number;
  /** What is typed between the @ and the caret: what the typeahead searches for. */
  query: string;
}

/** Longest name the typeahead searches for (a handle's longest). */
const MAX_QUERY = 30;

const NAME_CHAR = /[\p{L}\p{N}_]/u;
// An @ after one of these is no mention (an e-mail address, a URL's path, "&@").
const BLOCKS_MENTION = /[\p{L}\p{N}_@#&/]/u;

/**
 * The mention the caret is in or at the end of, once at least one letter
 * follows the @; null for none. The name runs on past the caret to the end
 * of the word, which picking a person replaces.
 */
export function activeMention(text: string, caret: number): MentionToken | null {
  if (caret < 0 || caret > text.length) return null;
  let i = caret;
  while (i > 0 && caret - i < MAX_QUERY && NAME_CHAR.test(text[i - 1]!)) i--;
  if (i === 0 || text[i - 1] !== '@') return null;
  const at = i - 1;
  if (at > 0 && BLOCKS_MENTION.test(text[at - 1]!)) return null;
  const query = text.slice(i, caret);
  if (query === '') return null;
  let end = caret;
  while (end < text.length && NAME_CHAR.test(text[end]!)) end++;
  return { start: at, end, query };
}

/**
 * text with the mention replaced by "@handle " and the caret just after it
 * (a space already there is not doubled).
 */
export function insertMention(text: string, token: MentionToken, handle: string): { text: string; caret: number } {
  const before = text.slice(0, token.start);
  const after = text.slice(token.end);
  const mention = `@${handle}`;
  const sep = after.startsWith(' ') ? '' : ' ';
  return { text: before + mention + sep + after, caret: before.length + mention.length + 1 };
}
