import { useAtom, useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { fullDate } from '../../lib/time';
import { SearchField } from '../../ui/SearchField';
import { adminGroupQueryAtom } from './adminAtoms';
import { fetchGroups, type AdminGroup } from './adminApi';
import { useDebounced } from './useDebounced';

/** Every group, secret ones included, searchable by name or handle; each opens its page. */
export function AdminGroups() {
  const [query, setQuery] = useAtom(adminGroupQueryAtom);
  const q = useDebounced(query);
  const navigate = useSetAtom(navigateAtom);
  const [groups, setGroups] = useState<AdminGroup[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');

  const load = useCallback(async (search: string, after: string | null) => {
    try {
      const page = await fetchGroups(search, after);
      setGroups((prev) => (after ? [...prev, ...page.items] : page.items));
      setCursor(page.nextCursor);
      setStatus('ready');
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not load the groups.');
      setStatus('error');
    }
  }, []);

  useEffect(() => {
    setStatus('loading');
    void load(q, null);
  }, [q, load]);

  return (
    <div className="admin__section">
      <SearchField value={query} onChange={setQuery} label="Search groups" placeholder="Name or handle" busy={status === 'loading'} />
      {status === 'error' && <p role="alert">{error}</p>}
      {status === 'ready' && groups.length === 0 && <p className="admin__muted">No groups match.</p>}
      {groups.length > 0 && (
        <div className="admin__table-wrap">
          <table className="admin__table">
            <caption className="visually-hidden">Groups</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Kind</th>
                <th scope="col">Visibility</th>
                <th scope="col">Members</th>
                <th scope="col">Posts</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.id}>
                  <th scope="row">
                    <a
                      href={`/g/${encodeURIComponent(g.handle)}`}
                      onClick={(e) => {
                        e.preventDefault();
                        navigate({ page: 'group', handle: g.handle });
                      }}
                    >
                      {g.name}
                    </a>
                    <span className="admin__muted admin__handle">@{g.handle}</span>
                  </th>
                  <td>{g.kind}</td>
                  <td>{g.visibility}</td>
                  <td>{g.members}</td>
                  <td>{g.posts}</td>
                  <td>
                    <time dateTime={g.createdAt}>{fullDate(g.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" className="button button--ghost" onClick={() => void load(q, cursor)}>
          Show more
        </button>
      )}
    </div>
  );
}
