import { useEffect, useId, useState } from 'react';
import { Avatar } from '../../ui/Avatar';
import { CloseIcon } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { fetchFriends } from '../friends/friendsApi';
import { search } from '../search/searchApi';
import type { UserBrief } from './model';

/**
 * Picks people to message: friends first (filtered as one types), and from
 * two characters anyone on campus the search finds. The chosen ones show as
 * chips above, each with a remove button.
 */
export function PersonPicker({
  selected,
  onChange,
  exclude,
  label = 'To',
}: {
  selected: UserBrief[];
  onChange: (people: UserBrief[]) => void;
  /** Ids never offered (me, the members already in). */
  exclude: readonly string[];
  label?: string;
}) {
  const [query, setQuery] = useState('');
  const [friends, setFriends] = useState<UserBrief[] | null>(null);
  const [found, setFound] = useState<UserBrief[]>([]);
  const [searching, setSearching] = useState(false);
  const listId = useId();

  useEffect(() => {
    const c = new AbortController();
    fetchFriends(c.signal)
      .then((list) => setFriends(list.map((u) => ({ id: u.id, name: u.name, avatarUrl: u.avatar.thumbUrl || u.avatar.url }))))
      .catch(() => setFriends([]));
    return () => c.abort();
  }, []);

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setFound([]);
      return;
    }
    const c = new AbortController();
    const t = setTimeout(() => {
      setSearching(true);
      search(q, c.signal)
        .then((rs) => setFound(rs.filter((r) => r.type === 'user').map((r) => ({ id: r.id, name: r.title || 'User', avatarUrl: r.avatar }))))
        .catch(() => undefined)
        .finally(() => {
          if (!c.signal.aborted) setSearching(false);
        });
    }, 250);
    return () => {
      clearTimeout(t);
      c.abort();
    };
  }, [query]);

  const q = query.trim().toLowerCase();
  const skip = new Set(exclude);
  const seen = new Set<string>();
  const options: UserBrief[] = [];
  for (const u of [...(friends ?? []).filter((f) => q === '' || f.name.toLowerCase().includes(q)), ...found]) {
    if (skip.has(u.id) || seen.has(u.id) || !u.id) continue;
    seen.add(u.id);
    options.push(u);
  }
  const chosen = new Set(selected.map((u) => u.id));
  const toggle = (u: UserBrief) => onChange(chosen.has(u.id) ? selected.filter((x) => x.id !== u.id) : [...selected, u]);

  return (
    <div className="picker">
      {selected.length > 0 && (
        <ul className="picker__chips" aria-label="Chosen">
          {selected.map((u) => (
            <li key={u.id} className="picker__chip">
              {u.name}
              <button type="button" className="picker__chip-remove" aria-label={`Remove ${u.name}`} onClick={() => toggle(u)}>
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <SearchField value={query} onChange={setQuery} label={`${label}: search people`} placeholder="Search friends or anyone on campus" busy={searching} aria-controls={listId} />
      <fieldset className="picker__options" id={listId}>
        <legend className="visually-hidden">People</legend>
        {friends === null ? (
          <p className="muted">Loading friends…</p>
        ) : options.length === 0 ? (
          <p className="muted">{q.length >= 2 && !searching ? 'No one found.' : q ? 'Keep typing to search everyone.' : 'No friends yet. Search for anyone on campus.'}</p>
        ) : (
          options.map((u) => (
            <label key={u.id} className="picker__option">
              <input type="checkbox" checked={chosen.has(u.id)} onChange={() => toggle(u)} />
              <span aria-hidden="true">
                <Avatar name={u.name} url={u.avatarUrl} size={32} />
              </span>
              <span>{u.name}</span>
            </label>
          ))
        )}
      </fieldset>
    </div>
  );
}
