import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { Avatar } from '../../ui/Avatar';
import { showToastAtom } from '../../ui/toast';
import { ConfirmDialog } from './ConfirmDialog';
import { listBlocked, unblockUser, type ListedUser } from './safetyApi';
import './Safety.css';

/** Settings: the people I block, each with Unblock (asked first). Unblocking restores visibility, not the friendship. */
export function BlockedTab() {
  const toast = useSetAtom(showToastAtom);
  const [users, setUsers] = useState<ListedUser[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [pending, setPending] = useState<ListedUser | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (after: string | null) => {
    try {
      const page = await listBlocked(after);
      setUsers((prev) => (after ? [...prev, ...page.users] : page.users));
      setCursor(page.nextCursor);
      setStatus('ready');
    } catch {
      setStatus('error');
    }
  }, []);

  useEffect(() => {
    void load(null);
  }, [load]);

  const unblock = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await unblockUser(pending.id);
      setUsers((prev) => prev.filter((u) => u.id !== pending.id));
      toast({ message: `${pending.name} is unblocked`, tone: 'success' });
      setPending(null);
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not unblock. Please try again.', tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="safety-blocked">
      <h2 className="settings__section-title">Blocked people</h2>
      <p className="safety-empty">People you block cannot see your posts, comments or profile, and you cannot see theirs.</p>
      {status === 'loading' && <p aria-busy="true">Loading…</p>}
      {status === 'error' && <p role="alert">Could not load the list. Please try again later.</p>}
      {status === 'ready' && users.length === 0 && <p className="safety-empty">You have not blocked anyone.</p>}
      <ul className="safety-list" aria-label="Blocked people">
        {users.map((u) => (
          <li key={u.id} className="safety-list__row">
            <Avatar name={u.name} url={u.avatar} size={36} />
            <span className="safety-list__name">{u.name}</span>
            <button type="button" className="button button--secondary button--sm" onClick={() => setPending(u)}>
              Unblock
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
        title="Unblock?"
        body={pending ? `${pending.name} will be able to see your posts and profile again. You will not be friends again.` : ''}
        confirmLabel="Unblock"
        busy={busy}
        onConfirm={() => void unblock()}
        onClose={() => setPending(null)}
      />
    </div>
  );
}
