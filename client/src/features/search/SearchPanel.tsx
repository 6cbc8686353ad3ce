import { useAtomValue, useSetAtom } from 'jotai';
import { Suspense, type ComponentType } from 'react';
import { productNameAtom } from '../../api/config';
import { navigateAtom } from '../../lib/navigation';
import { AVATAR_SIZE_SEARCH } from '../../constants';
import { Avatar } from '../../ui/Avatar';
import { ChunkBoundary } from '../../ui/ChunkBoundary';
import { Modal } from '../../ui/Modal';
import { SearchField } from '../../ui/SearchField';
import {
  searchAnsweredQueryAtom,
  searchOpenAtom,
  searchQueryAtom,
  searchResultsAtom,
  searchStatusAtom,
  setSearchOpenAtom,
  setSearchQueryAtom,
  shouldSearch,
} from './searchAtoms';
import { resultTarget, typeLabel, type SearchResult } from './searchApi';
import { useDebouncedSearch } from './useDebouncedSearch';
import './Search.css';

/**
 * What the overlay shows while nothing is typed (the shell passes what is
 * trending, in a chunk of its own); `close` closes the overlay. Its items
 * are `.search-result`s, which the arrow keys move between.
 */
export type SearchIdle = ComponentType<{ close: () => void }>;

/**
 * docs/product.md §2.10 search overlay: 'Search {product}...', searching from 2
 * characters, results with their type, title, subtitle and a 32 px avatar in
 * a scrollable list; 'No results found for "{query}"'. A result opens the
 * profile, the group, the tag's page or the post; the overlay closes on an
 * outside click (the Modal), on navigation and on a page change (the Shell).
 * With nothing typed it shows Idle (issue 27 item 2: what is trending).
 */
export function SearchPanel({ Idle }: { Idle?: SearchIdle } = {}) {
  const open = useAtomValue(searchOpenAtom);
  const setOpen = useSetAtom(setSearchOpenAtom);
  const productName = useAtomValue(productNameAtom);
  const query = useAtomValue(searchQueryAtom);
  const setQuery = useSetAtom(setSearchQueryAtom);
  const results = useAtomValue(searchResultsAtom);
  const status = useAtomValue(searchStatusAtom);
  const answered = useAtomValue(searchAnsweredQueryAtom);
  const navigate = useSetAtom(navigateAtom);
  useDebouncedSearch(open ? query : '');

  const go = (r: SearchResult) => {
    setOpen(false);
    // docs/product.md §2.10: a user result stores the viewed profile id (navigation persists it).
    navigate(resultTarget(r));
  };

  const searching = shouldSearch(query);
  const current = answered === query.trim();

  // Arrow keys move between the field and the results (issue 16 #7); Tab
  // still works, Enter opens the focused result.
  const onArrows = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const root = e.currentTarget;
    const items = [...root.querySelectorAll<HTMLElement>('input[type="search"], .search-result')];
    if (items.length < 2) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    e.preventDefault();
    const next = e.key === 'ArrowDown' ? Math.min(at + 1, items.length - 1) : Math.max(at - 1, 0);
    items[next]!.focus();
  };

  return (
    <Modal open={open} onClose={() => setOpen(false)} title="Search" size="md" className="search-panel">
      {/* Arrow keys between the field and the results; not a widget of its own. */}
      <div onKeyDown={onArrows}>
        <SearchField
          value={query}
          onChange={setQuery}
          label={`Search ${productName}`}
          placeholder={`Search ${productName}...`}
          busy={status === 'searching'}
          data-autofocus
        />
        {!searching ? (
          <>
            <p className="muted search-panel__hint">Find people, groups, tags, posts and comments. Type at least 2 characters.</p>
            {Idle && query.trim() === '' && (
              <ChunkBoundary className="chunk-error--inline">
                <Suspense fallback={null}>
                  <Idle close={() => setOpen(false)} />
                </Suspense>
              </ChunkBoundary>
            )}
          </>
        ) : status === 'done' && current && results.length === 0 ? (
          <p className="search-panel__empty" role="status">
            No results found for "{query.trim()}"
          </p>
        ) : (
          <ul className="search-results" aria-label="Search results" aria-busy={status === 'searching'}>
            {results.map((r) => (
              <li key={`${r.type}-${r.id}`}>
                <button type="button" className="search-result" onClick={() => go(r)}>
                  {r.type === 'tag' ? (
                    <span className="search-result__tag-icon" aria-hidden="true">
                      #
                    </span>
                  ) : (
                    <Avatar name={r.type === 'user' || r.type === 'group' ? r.title : r.subtitle || r.title} url={r.avatar} size={AVATAR_SIZE_SEARCH} />
                  )}
                  <span className="search-result__text">
                    <span className="search-result__title">{r.title}</span>
                    {r.subtitle && <span className="search-result__subtitle">{r.subtitle}</span>}
                  </span>
                  <span className={`search-result__type search-result__type--${r.type}`}>{typeLabel(r.type)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
