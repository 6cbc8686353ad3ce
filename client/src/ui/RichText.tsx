import { useSetAtom } from 'jotai';
import { Fragment } from 'react';
import { navigateAtom } from '../app/navigation';
import { search } from '../features/search/searchApi';
import { openSearchWithAtom } from '../features/search/searchAtoms';
import { tokenize } from '../lib/richText';

/** The handle a name answers to: "Asha Rao" → "asharao". */
function handleOf(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * User text with URLs, @mentions and #tags made into links (issue 16 #2).
 * Everything is a React text node or element; nothing is parsed as HTML.
 * Line breaks show as typed (the CSS keeps white-space: pre-wrap).
 */
export function RichText({ text }: { text: string }) {
  const navigate = useSetAtom(navigateAtom);
  const openSearch = useSetAtom(openSearchWithAtom);

  // @name opens that person's profile when search finds exactly them;
  // otherwise the search overlay with the name, to pick from.
  const openMention = async (name: string) => {
    const want = handleOf(name);
    try {
      const users = (await search(name)).filter((r) => r.type === 'user');
      const hit = users.find((u) => handleOf(u.title) === want) ?? (users.length === 1 ? users[0] : undefined);
      if (hit) {
        navigate({ page: 'profile', userId: hit.id });
        return;
      }
    } catch {
      // fall through to the overlay
    }
    openSearch(name);
  };

  return (
    <>
      {tokenize(text).map((t, i) => {
        switch (t.kind) {
          case 'text':
            return <Fragment key={i}>{t.text}</Fragment>;
          case 'url':
            return (
              <a key={i} href={t.href} target="_blank" rel="noopener nofollow ugc">
                {t.text}
              </a>
            );
          case 'mention':
            return (
              <a
                key={i}
                href={`/search?q=${encodeURIComponent(t.name)}`}
                className="rich-mention"
                onClick={(e) => {
                  e.preventDefault();
                  void openMention(t.name);
                }}
              >
                {t.text}
              </a>
            );
          case 'tag':
            return (
              <a
                key={i}
                href={`/search?q=${encodeURIComponent(t.text)}`}
                className="rich-tag"
                onClick={(e) => {
                  e.preventDefault();
                  openSearch(t.text);
                }}
              >
                {t.text}
              </a>
            );
        }
      })}
    </>
  );
}
