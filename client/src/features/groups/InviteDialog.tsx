import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { userSubtitle, type UserSummary } from '../../api/models';
import { Avatar } from '../../ui/Avatar';
import { Modal } from '../../ui/Modal';
import { SearchField } from '../../ui/SearchField';
import { showToastAtom } from '../../ui/toast';
import { fetchFriends } from '../friends/friendsApi';
import { inviteToGroup } from './groupsApi';
import type { Group } from './model';

type RowState = 'idle' | 'busy' | 'invited';

/** Case-insensitive match on name or university ID (as the Friends screen's search). */
function matches(u: UserSummary, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || u.name.toLowerCase().includes(q) || u.universityId.toLowerCase().includes(q);
}

/** Invite a friend: my friends, searchable; the invitation reaches them as a notification. */
export function InviteDialog({ open, onClose, group }: { open: boolean; onClose: () => void; group: Group }) {
  const toast = useSetAtom(showToastAtom);
  const [friends, setFriends] = useState<UserSummary[] | null>(null);
  const [query, setQuery] = useState('');
  const [rows, setRows] = useState<Record<string, RowState>>({});

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setQuery('');
    fetchFriends(controller.signal)
      .then(setFriends)
      .catch(() => setFriends([]));
    return () => controller.abort();
  }, [open]);

  const invite = async (u: UserSummary) => {
    setRows((r) => ({ ...r, [u.id]: 'busy' }));
    try {
      await inviteToGroup(group.handle, u.id);
      setRows((r) => ({ ...r, [u.id]: 'invited' }));
    } catch (err) {
      setRows((r) => ({ ...r, [u.id]: 'idle' }));
      toast({ message: isApiError(err) ? err.message : 'Could not send the invitation. Please try again.', tone: 'error', ms: 4000 });
    }
  };

  const shown = (friends ?? []).filter((f) => matches(f, query));
  return (
    <Modal open={open} onClose={onClose} title={`Invite friends to ${group.name}`} size="md" className="group-invite">
      <SearchField value={query} onChange={setQuery} label="Search friends" placeholder="Search by name or university ID" data-autofocus />
      {friends === null ? (
        <div className="group-invite__loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="visually-hidden">Loading friends…</span>
        </div>
      ) : shown.length === 0 ? (
        <p className="muted group-invite__empty">{friends.length === 0 ? 'Add friends to invite them to groups.' : 'No friends match.'}</p>
      ) : (
        <ul className="group-people" aria-label="Friends">
          {shown.map((u) => {
            const state = rows[u.id] ?? 'idle';
            return (
              <li key={u.id} className="group-member">
                <span className="group-person">
                  <Avatar name={u.name} url={u.avatar.thumbUrl || u.avatar.url} variants={u.avatar.variants} />
                  <span className="group-person__text">
                    <span className="group-person__name">{u.name}</span>
                    <span className="group-person__sub">{userSubtitle(u)}</span>
                  </span>
                </span>
                {state === 'invited' ? (
                  <span className="group-invite__sent" role="status">
                    Invited
                  </span>
                ) : (
                  <button
                    type="button"
                    className="button button--primary button--sm"
                    disabled={state === 'busy'}
                    aria-label={`Invite ${u.name}`}
                    onClick={() => void invite(u)}
                  >
                    Invite
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}
