import { describe, expect, it } from 'vitest';
import { safeHref, tokenize } from './richText';

describe('tokenize (issue 16 #2)', () => {
  const cases: { name: string; text: string; want: ReturnType<typeof tokenize> }[] = [
    { name: 'plain text', text: 'hello world', want: [{ kind: 'text', text: 'hello world' }] },
    {
      name: 'a URL with sentence punctuation after it',
      text: 'see https://example.org/a?b=1. ok',
      want: [
        { kind: 'text', text: 'see ' },
        { kind: 'url', text: 'https://example.org/a?b=1', href: 'https://example.org/a?b=1' },
        { kind: 'text', text: '. ok' },
      ],
    },
    {
      name: 'www. hosts get https',
      text: 'www.campus.edu',
      want: [{ kind: 'url', text: 'www.campus.edu', href: 'https://www.campus.edu/' }],
    },
    {
      name: 'a balanced parenthesis stays in the URL',
      text: '(https://en.wikipedia.org/wiki/Go_(language))',
      want: [
        { kind: 'text', text: '(' },
        { kind: 'url', text: 'https://en.wikipedia.org/wiki/Go_(language)', href: 'https://en.wikipedia.org/wiki/Go_(language)' },
        { kind: 'text', text: ')' },
      ],
    },
    {
      name: 'mentions and tags at word starts',
      text: 'hi @Asha, #go2026 rocks!',
      want: [
        { kind: 'text', text: 'hi ' },
        { kind: 'mention', text: '@Asha', name: 'Asha' },
        { kind: 'text', text: ', ' },
        { kind: 'tag', text: '#go2026', tag: 'go2026' },
        { kind: 'text', text: ' rocks!' },
      ],
    },
    {
      name: 'e-mail addresses and C# are text',
      text: 'mail a@b.edu about C#',
      want: [{ kind: 'text', text: 'mail a@b.edu about C#' }],
    },
    {
      name: 'a mention ending a sentence',
      text: 'thanks @ravi.kumar.',
      want: [
        { kind: 'text', text: 'thanks ' },
        { kind: 'mention', text: '@ravi.kumar', name: 'ravi.kumar' },
        { kind: 'text', text: '.' },
      ],
    },
    {
      name: 'tags as the server takes them: whole runs, any script, normalized; not digits only, not too long',
      text: '#Chess #हिन्दी #2026 #' + 'a'.repeat(51) + ' x#y #ok',
      want: [
        { kind: 'tag', text: '#Chess', tag: 'chess' },
        { kind: 'text', text: ' ' },
        { kind: 'tag', text: '#हिन्दी', tag: 'हिन्दी' },
        { kind: 'text', text: ' #2026 #' + 'a'.repeat(51) + ' x#y ' },
        { kind: 'tag', text: '#ok', tag: 'ok' },
      ],
    },
    {
      name: 'markup stays text',
      text: '<img src=x onerror=alert(1)> javascript:alert(1)',
      want: [{ kind: 'text', text: '<img src=x onerror=alert(1)> javascript:alert(1)' }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = tokenize(c.text);
      expect(got).toEqual(c.want);
      expect(got.map((t) => t.text).join('')).toBe(c.text);
    });
  }

  it('links only http and https', () => {
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('https://x.org')).toBe('https://x.org/');
  });
});
