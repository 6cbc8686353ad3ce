import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ComponentPropsWithoutRef, type KeyboardEvent, type Ref } from 'react';
import { Avatar } from '../../ui/Avatar';
import { activeMention, insertMention } from './mentionToken';
import { suggestPeople, suggestionLine, type Suggestion } from './mentionsApi';
import './MentionTextarea.css';

/** Quiet time after a keystroke before the typeahead asks the server. */
const DEBOUNCE_MS = 150;

export interface MentionTextareaProps extends Omit<ComponentPropsWithoutRef<'textarea'>, 'value' | 'onChange'> {
  value: string;
  /** The text as typed, or with a person picked from the list. */
  onValueChange: (value: string) => void;
  ref?: Ref<HTMLTextAreaElement>;
  /** The class of the wrapper, which takes the field's place in its form. */
  fieldClassName?: string;
}

/**
 * A textarea that offers people to mention (issue 27): typing @ and a letter
 * opens a list of the people the server suggests for what follows (friends
 * first, then the writer's batch, course and department). It follows the
 * combobox pattern with the textarea as the combobox's text field: the list
 * is its listbox (aria-controls) and the option the arrows move to is its
 * aria-activedescendant, so focus never leaves the text. Up and Down choose,
 * Enter or Tab insert "@handle ", Escape closes the list (and only the list:
 * a dialog around stays open), as does a click elsewhere. Every other key,
 * and every key while the list is closed, goes to the field's own onKeyDown.
 */
export function MentionTextarea({
  value,
  onValueChange,
  ref,
  fieldClassName,
  onKeyDown,
  onBlur,
  onSelect,
  maxLength,
  ...rest
}: MentionTextareaProps) {
  const inner = useRef<HTMLTextAreaElement | null>(null);
  const setRefs = useCallback(
    (el: HTMLTextAreaElement | null) => {
      inner.current = el;
      if (typeof ref === 'function') ref(el);
      else if (ref) ref.current = el;
    },
    [ref],
  );
  const listId = useId();
  // The caret while the field has focus; null when it has not.
  const [caret, setCaret] = useState<number | null>(null);
  // The start of a mention whose list Escape closed: it stays closed.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [found, setFound] = useState<{ query: string; people: Suggestion[] } | null>(null);
  const [active, setActive] = useState(0);
  const cache = useRef(new Map<string, Suggestion[]>());
  const pendingCaret = useRef<number | null>(null);

  const token = caret === null ? null : activeMention(value, caret);
  const query = token && token.start !== dismissed ? token.query.toLowerCase() : '';

  // Out of a mention, Escape's choice is forgotten: the next one opens.
  const inMention = token !== null;
  useEffect(() => {
    if (!inMention) setDismissed(null);
  }, [inMention]);

  useEffect(() => {
    if (!query) return undefined;
    const known = cache.current.get(query);
    if (known) {
      setFound({ query, people: known });
      setActive(0);
      return undefined;
    }
    const c = new AbortController();
    const t = setTimeout(() => {
      suggestPeople(query, c.signal)
        .then((people) => {
          cache.current.set(query, people);
          setFound({ query, people });
          setActive(0);
        })
        .catch(() => {
          // No suggestions (offline, a failed call): the text stays as typed.
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(t);
      c.abort();
    };
  }, [query]);

  // While the next answer is on its way, the last one stays up as long as
  // it answered the start of what is typed now.
  const people = query && found && query.startsWith(found.query) ? found.people : [];
  const open = people.length > 0;
  const activeIndex = Math.min(active, people.length - 1);
  const optionId = (i: number) => `${listId}-option-${i}`;

  // The chosen option stays in sight in a list that scrolls.
  useEffect(() => {
    if (!open) return;
    const el = document.getElementById(`${listId}-option-${activeIndex}`);
    if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [open, activeIndex, listId]);

  // After a pick: the caret goes after the inserted mention.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !inner.current) return;
    pendingCaret.current = null;
    inner.current.setSelectionRange(at, at);
    setCaret(at);
  }, [value]);

  const pick = (s: Suggestion | undefined) => {
    if (!s || !token) return;
    const next = insertMention(value, token, s.handle);
    if (maxLength !== undefined && next.text.length > maxLength) {
      setDismissed(token.start); // no room for it: the text stays as it is
      return;
    }
    pendingCaret.current = next.caret;
    setFound(null);
    onValueChange(next.text);
  };

  const handleKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open && token && !e.nativeEvent.isComposing) {
      const plain = !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey;
      switch (e.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          if (!plain) break;
          e.preventDefault();
          setActive((activeIndex + (e.key === 'ArrowDown' ? 1 : people.length - 1)) % people.length);
          return;
        case 'Enter':
        case 'Tab':
          if (!plain) break;
          e.preventDefault();
          e.stopPropagation();
          pick(people[activeIndex]);
          return;
        case 'Escape':
          e.preventDefault();
          e.stopPropagation();
          setDismissed(token.start);
          return;
      }
    }
    onKeyDown?.(e);
  };

  return (
    <div className={`mention-field${fieldClassName ? ` ${fieldClassName}` : ''}`}>
      <textarea
        {...rest}
        ref={setRefs}
        value={value}
        maxLength={maxLength}
        onChange={(e) => {
          setCaret(e.target.selectionStart);
          onValueChange(e.target.value);
        }}
        onSelect={(e) => {
          setCaret(e.currentTarget.selectionStart);
          onSelect?.(e);
        }}
        onBlur={(e) => {
          setCaret(null);
          onBlur?.(e);
        }}
        onKeyDown={handleKeyDown}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(activeIndex) : undefined}
      />
      {open && (
        <ul id={listId} role="listbox" className="mention-list" aria-label="People to mention">
          {people.map((s, i) => (
            <li
              key={s.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === activeIndex}
              className={`mention-option${i === activeIndex ? ' is-active' : ''}`}
              // Keeps the focus (and the caret) in the text.
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(s)}
            >
              <Avatar name={s.name} url={s.avatar.thumbUrl || s.avatar.url} variants={s.avatar.variants} size={32} />
              <span className="mention-option__text">
                <span className="mention-option__name">{s.name}</span>
                <span className="mention-option__line">
                  @{s.handle} · {suggestionLine(s)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {/* Announced as the list opens (a live region, not a status: the page's own status messages stay the only ones). */}
      <span className="visually-hidden" aria-live="polite">
        {open ? `${people.length} ${people.length === 1 ? 'person' : 'people'} to mention: up and down arrows choose, Enter inserts.` : ''}
      </span>
    </div>
  );
}
