import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { navigateAtom } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { SearchField } from '../../ui/SearchField';
import { Skeleton } from '../../ui/Skeleton';
import { GroupFormDialog } from './GroupFormDialog';
import {
  directoryAtom,
  groupSuggestionsAtom,
  loadGroupSuggestionsAtom,
  loadMyGroupsAtom,
  myGroupsAtom,
  searchDirectoryAtom,
} from './groupsAtoms';
import { JoinButton } from './JoinButton';
import { groupSummary, type Group } from './model';
import './Groups.css';

export const SEARCH_DELAY_MS = 300;

/** A group's name, picture and summary, opening its page; `extra` beside it (a reason, a button). */
export function GroupRow({ group, reason, action }: { group: Group; reason?: string; action?: React.ReactNode }) {
  const navigate = useSetAtom(navigateAtom);
  return (
    <li className="group-row">
      <Avatar name={group.name} url={group.avatarUrl} size={48} className="group-avatar" />
      <span className="group-row__text">
        <a
          className="group-row__name"
          href={`/g/${encodeURIComponent(group.handle)}`}
          onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            navigate({ page: 'group', handle: group.handle });
          }}
        >
          {group.name}
        </a>
        <span className="group-row__sub">{groupSummary(group)}</span>
        {reason && <span className="group-row__reason">{reason}</span>}
      </span>
      {action}
    </li>
  );
}

function RowsSkeleton() {
  return (
    <ul className="group-list" aria-hidden="true">
      {Array.from({ length: 3 }, (_, i) => (
        <li key={i} className="group-row">
          <Skeleton width={48} height={48} />
          <Skeleton width="50%" height={14} />
        </li>
      ))}
    </ul>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="card groups-section" aria-labelledby={id}>
      <h2 id={id} className="groups-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** `/groups` (issue 18): search, my groups, suggestions with their reason, and every group I may see. */
export function GroupsPage() {
  const mine = useAtomValue(myGroupsAtom);
  const suggestions = useAtomValue(groupSuggestionsAtom);
  const directory = useAtomValue(directoryAtom);
  const loadMine = useSetAtom(loadMyGroupsAtom);
  const loadSuggestions = useSetAtom(loadGroupSuggestionsAtom);
  const search = useSetAtom(searchDirectoryAtom);
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);
  const q = query.trim();

  useEffect(() => {
    void loadMine();
    void loadSuggestions();
  }, [loadMine, loadSuggestions]);

  // Typing pauses before the directory is asked again; '' lists every group.
  useEffect(() => {
    const t = setTimeout(() => void search({ q }), q === '' ? 0 : SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [q, search]);

  const searching = q !== '';
  const results = directory.q === q ? directory.groups : [];

  return (
    <div className="groups-page">
      <header className="groups-page__head">
        <h1 className="groups-page__title">Groups</h1>
        <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
          Create group
        </button>
      </header>
      <SearchField
        value={query}
        onChange={setQuery}
        label="Search groups"
        placeholder="Search courses, clubs, events…"
        busy={directory.status === 'loading' && searching}
      />

      {!searching && (
        <>
          <Section id="groups-mine" title="Your groups">
            {mine === null ? (
              <RowsSkeleton />
            ) : mine.length === 0 ? (
              <p className="muted groups-section__empty">You haven't joined any groups yet.</p>
            ) : (
              <ul className="group-list" aria-labelledby="groups-mine">
                {mine.map((g) => (
                  <GroupRow key={g.handle} group={g} />
                ))}
              </ul>
            )}
          </Section>
          {(suggestions === null || suggestions.length > 0) && (
            <Section id="groups-suggested" title="Suggested for you">
              {suggestions === null ? (
                <RowsSkeleton />
              ) : (
                <ul className="group-list" aria-labelledby="groups-suggested">
                  {suggestions.map((s) => (
                    <GroupRow key={s.group.handle} group={s.group} reason={s.reason} action={<JoinButton group={s.group} compact />} />
                  ))}
                </ul>
              )}
            </Section>
          )}
        </>
      )}

      <Section id="groups-directory" title={searching ? 'Search results' : 'All groups'}>
        {directory.status === 'error' && results.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">Couldn't load groups</p>
            <button type="button" className="button button--secondary" onClick={() => void search({ q })}>
              Try again
            </button>
          </div>
        ) : results.length === 0 && directory.status !== 'ready' ? (
          <RowsSkeleton />
        ) : results.length === 0 ? (
          <p className="muted groups-section__empty">{searching ? `No groups match “${q}”.` : 'No groups yet. Create the first one!'}</p>
        ) : (
          <ul className="group-list" aria-labelledby="groups-directory">
            {results.map((g) => (
              <GroupRow key={g.handle} group={g} action={g.me.status === 'member' ? undefined : <JoinButton group={g} compact />} />
            ))}
          </ul>
        )}
        {directory.hasMore && directory.q === q && (
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={directory.status === 'loading'}
            onClick={() => void search({ q, more: true })}
          >
            Show more groups
          </button>
        )}
      </Section>

      <GroupFormDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
