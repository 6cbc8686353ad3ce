// Splits post and comment text into plain runs, links, @mentions and #tags,
// for RichText to render as React elements (never as HTML: the text is the
// user's, so nothing in it is ever parsed as markup).

import { normalizeTag } from './tags';

export type RichToken =
  | { kind: 'text'; text: string }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'mention'; text: string; name: string }
  /** tag: normalized (lib/tags), as its page is named. */
  | { kind: 'tag'; text: string; tag: string };

// http(s) URLs and bare www. hosts; @ and # only at a word start, so e-mail
// addresses and "C#" stay text. A #tag is the whole run of tag characters
// after '#', and only a run the server takes for a tag is linked
// (lib/tags): the same posts are under its page.
const PATTERN = /(https?:\/\/[^\s<>"]+|www\.[^\s<>"]+)|(^|[^\p{L}\p{N}_@#&/])@([\p{L}\p{N}_][\p{L}\p{N}_.-]{0,63})|(^|[^\p{L}\p{M}\p{N}_@#&/])#([\p{L}\p{M}\p{N}_]+)/gu;

// Punctuation that ends a sentence rather than a URL: "see https://x.org." →
// the dot is text. A closing bracket stays only when the URL opened one.
const TRAILING = /[.,;:!?'"’”)\]}]+$/;

function trimUrl(raw: string): string {
  let url = raw;
  while (TRAILING.test(url)) {
    // A ")" closing a "(" inside the URL (Wikipedia style) belongs to it.
    if (url.endsWith(')') && url.split('(').length >= url.split(')').length) return url;
    url = url.slice(0, -1);
  }
  return url;
}

/** Only http and https are ever linked; anything else is text. */
export function safeHref(url: string): string | null {
  const candidate = /^www\./i.test(url) ? `https://${url}` : url;
  try {
    const u = new URL(candidate);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The tokens of text, in order; joining their `text` gives text back. */
export function tokenize(text: string): RichToken[] {
  const out: RichToken[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let last = 0;
  for (const m of text.matchAll(PATTERN)) {
    const start = m.index;
    plain += text.slice(last, start);
    if (m[1]) {
      const url = trimUrl(m[1]);
      const href = safeHref(url);
      if (href) {
        flush();
        out.push({ kind: 'url', text: url, href });
      } else {
        plain += url;
      }
      plain += m[1].slice(url.length);
    } else if (m[3] !== undefined) {
      plain += m[2] ?? '';
      const name = m[3].replace(/[.-]+$/, '');
      flush();
      out.push({ kind: 'mention', text: `@${name}`, name });
      plain += m[3].slice(name.length);
    } else if (m[5] !== undefined) {
      plain += m[4] ?? '';
      const tag = normalizeTag(m[5]);
      if (tag) {
        flush();
        out.push({ kind: 'tag', text: `#${m[5]}`, tag });
      } else {
        plain += `#${m[5]}`;
      }
    }
    last = start + m[0].length;
  }
  plain += text.slice(last);
  flush();
  return out;
}
