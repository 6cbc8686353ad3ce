import { useSetAtom } from 'jotai';
import { Fragment, useState, type MouseEvent } from 'react';
import type { Mention } from '../../api/models';
import { navigateAtom, pathOf, searchHref, tagPath } from '../../lib/navigation';
import { tokenize } from '../../lib/richText';
import { search } from './searchApi';
import { openSearchWithAtom } from './searchAtoms';

/** The handle a name answers to: "Asha Rao" → "asharao". */
function handleOf(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

// The profiles @names resolved to this session, by handle: one search per
// name however often it is hovered, focused or clicked.
const mentionTargets = new Map<string, Promise<string | null>>();

/**
 * The user id an @name names: the user search finds with that handle, or the
 * only user it finds; null when it names nobody (or several). A failed search
 * is not remembered.
 */
function resolveMention(name: string): Promise<string | null> {
  const key = handleOf(name);
  let target = mentionTargets.get(key);
  if (!target) {
    target = search(name).then(
      (results) => {
        const users = results.filter((r) => r.type === 'user');
        const hit = users.find((u) => handleOf(u.title) === key) ?? (users.length === 1 ? users[0] : undefined);
        return hit ? hit.id : null;
      },
      () => {
        mentionTargets.delete(key);
        return null;
      },
    );
    mentionTargets.set(key, target);
  }
  return target;
}

/** A click the browser should handle itself: a new tab or window. */
function opensElsewhere(e: MouseEvent): boolean {
  return e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey;
}

/**
 * An @name: it links to that person's profile once the name resolves (it
 * starts resolving when pointed at or focused, so a link opened in a new tab
 * goes there too), and to the search overlay's deep link until then or when
 * it names nobody. A click resolves and opens the profile, or the overlay
 * searching for the name, to pick from.
 */
function MentionLink({ text, name }: { text: string; name: string }) {
  const navigate = useSetAtom(navigateAtom);
  const openSearch = useSetAtom(openSearchWithAtom);
  const [userId, setUserId] = useState<string | null>(null);
  const resolve = async () => {
    const id = await resolveMention(name);
    setUserId(id);
    return id;
  };
  return (
    <a
      href={userId ? pathOf({ page: 'profile', userId }) : searchHref(name)}
      className="rich-mention"
      onPointerEnter={() => void resolve()}
      onFocus={() => void resolve()}
      onClick={(e) => {
        if (opensElsewhere(e)) return;
        e.preventDefault();
        void resolve().then((id) => (id ? navigate({ page: 'profile', userId: id }) : openSearch(name)));
      }}
    >
      {text}
    </a>
  );
}

/** An @handle the server resolved (issue 27): a link to that person's profile. */
function ProfileMention({ text, userId }: { text: string; userId: string }) {
  const navigate = useSetAtom(navigateAtom);
  return (
    <a
      href={pathOf({ page: 'profile', userId })}
      className="rich-mention"
      onClick={(e) => {
        if (opensElsewhere(e)) return;
        e.preventDefault();
        navigate({ page: 'profile', userId });
      }}
    >
      {text}
    </a>
  );
}

/**
 * User text with URLs, @mentions and #tags made into links (issue 16 #2); a
 * #tag leads to its page (issue 27 item 2).
 * Everything is a React text node or element; nothing is parsed as HTML.
 * Line breaks show as typed (the CSS keeps white-space: pre-wrap).
 *
 * With `mentions` (posts and comments, issue 27), an @handle among them links
 * to that person's profile and any other stays text; without (messages), an
 * @name is looked up when pointed at.
 */
export function RichText({ text, mentions }: { text: string; mentions?: Mention[] }) {
  const navigate = useSetAtom(navigateAtom);

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
          case 'mention': {
            if (!mentions) return <MentionLink key={i} text={t.text} name={t.name} />;
            const handle = t.name.toLowerCase();
            const m = mentions.find((x) => x.handle === handle);
            return m ? <ProfileMention key={i} text={t.text} userId={m.id} /> : <Fragment key={i}>{t.text}</Fragment>;
          }
          case 'tag':
            return (
              <a
                key={i}
                href={tagPath(t.tag)}
                className="rich-tag"
                onClick={(e) => {
                  if (opensElsewhere(e)) return;
                  e.preventDefault();
                  navigate({ page: 'tag', tag: t.tag });
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
