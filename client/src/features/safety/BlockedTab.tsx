import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { Avatar } from '../../ui/Avatar';
import { showToastAtom } from '../../ui/toast';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { listBlocked, listMuted, unblockUser, unmuteUser, type ListedPage, type ListedUser } from './safetyApi';
import './Safety.css';

/** Settings: the people I block and the people I mute. */
export function BlockedTab() {
  return (
    <>
      <PeopleList
        kind="blocked"
        title="Blocked people"
        intro="People you block cannot see your posts, comments or profile, and you cannot see theirs."
        empty="You have not blocked anyone."
        load={listBlocked}
        undo={unblockUser}
      />
      <PeopleList
        kind="muted"
        title="Muted people"
        intro="Posts of people you mute are left out of your feed. They are not told."
        empty="You have not muted anyone."
        load={listMuted}
        undo={unmuteUser}
      />
    </>
  );
}

interface PeopleListProps {
  kind: 'blocked' | 'muted';
  title: string;
  intro: string;
  empty: string;
  load: (cursor: string | null) => Promise<ListedPage>;
  undo: (userId: string) => Promise<void>;
}

/** One list with its undo action (asked first). Unblocking restores visibility, not the friendship. */
function PeopleList({ kind, title, intro, empty, load: fetchPage, undo }: PeopleListProps) {
  const verb = kind === 'blocked' ? 'Unblock' : 'Unmute';
  const toast = useSetAtom(showToastAtom);
  const [users, setUsers] = useState<ListedUser[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [pending, setPending] = useState<ListedUser | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (after: string | null) => {
    try {
      const page = await fetchPage(after);
      setUsers((prev) => (after ? [...prev, ...page.users] : page.users));
      setCursor(page.nextCursor);
      setStatus('ready');
    } catch {
      setStatus('error');
    }
  }, [fetchPage]);

  useEffect(() => {
    void load(null);
  }, [load]);

  const unblock = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await undo(pending.id);
      setUsers((prev) => prev.filter((u) => u.id !== pending.id));
      toast({ message: `${pending.name} is ${kind === 'blocked' ? 'unblocked' : 'unmuted'}`, tone: 'success' });
      setPending(null);
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Something went wrong. Please try again.', tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="safety-people">
      <h2 className="settings__section-title">{title}</h2>
      <p className="safety-empty">{intro}</p>
      {status === 'loading' && <p aria-busy="true">Loading…</p>}
      {status === 'error' && <p role="alert">Could not load the list. Please try again later.</p>}
      {status === 'ready' && users.length === 0 && <p className="safety-empty">{empty}</p>}
      <ul className="safety-list" aria-label={title}>
        {users.map((u) => (
          <li key={u.id} className="safety-list__row">
            <Avatar name={u.name} url={u.avatar} size={36} />
            <span className="safety-list__name">{u.name}</span>
            <button type="button" className="button button--secondary button--sm" onClick={() => setPending(u)}>
              {verb}
            </button>
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" className="button button--ghost" onClick={() => void load(cursor)}>
          Show more
        </button>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={`${verb}?`}
        body={
          pending
            ? kind === 'blocked'
              ? `${pending.name} will be able to see your posts and profile again. You will not be friends again.`
              : `${pending.name}'s posts will be back in your feed.`
            : ''
        }
        confirmLabel={verb}
        busy={busy}
        onConfirm={() => void unblock()}
        onClose={() => setPending(null)}
      />
    </div>
  );
}
