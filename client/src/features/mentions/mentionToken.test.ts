import { describe, expect, it } from 'vitest';
import { activeMention, insertMention } from './mentionToken';

/** The text with | marking the caret, split. */
function at(marked: string): [string, number] {
  const caret = marked.indexOf('|');
  return [marked.replace('|', ''), caret];
}

describe('activeMention', () => {
  const cases: [string, ReturnType<typeof activeMention>][] = [
    ['@bik|', { start: 0, end: 4, query: 'bik' }],
    ['hi @Bik|', { start: 3, end: 7, query: 'Bik' }],
    ['hi @bik|ram more', { start: 3, end: 10, query: 'bik' }],
    ['(@ravi_k|)', { start: 1, end: 8, query: 'ravi_k' }],
    ['line\n@a|', { start: 5, end: 7, query: 'a' }],
    ['@|', null], // a letter first
    ['@bik |', null], // past the word
    ['mail asha@uni|', null], // an e-mail address
    ['https://x.org/@bik|', null],
    ['#@bik|', null],
    ['no at|', null],
  ];
  for (const [marked, want] of cases) {
    it(JSON.stringify(marked), () => {
      const [text, caret] = at(marked);
      expect(activeMention(text, caret)).toEqual(want);
    });
  }
});

describe('insertMention', () => {
  it('replaces the word with "@handle " and puts the caret after it', () => {
    const [text, caret] = at('hi @Bik|ram!');
    const token = activeMention(text, caret)!;
    expect(insertMention(text, token, 'bikramsen')).toEqual({ text: 'hi @bikramsen !', caret: 14 });
  });

  it('does not double a space already there', () => {
    const [text, caret] = at('@bi| and more');
    const token = activeMention(text, caret)!;
    expect(insertMention(text, token, 'bikramsen')).toEqual({ text: '@bikramsen and more', caret: 11 });
  });
});
