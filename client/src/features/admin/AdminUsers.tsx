import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { fullDate } from '../../lib/time';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Modal } from '../../ui/Modal';
import { SearchField } from '../../ui/SearchField';
import { showToastAtom } from '../../ui/toast';
import { currentUserAtom } from '../auth/authAtoms';
import { adminSelectedUserAtom, adminUserQueryAtom } from './adminAtoms';
import {
  fetchUser,
  fetchUsers,
  resetSessions,
  setRole,
  suspend,
  unsuspend,
  type ActionResult,
  type AdminUser,
  type Role,
} from './adminApi';
import { useDebounced } from './useDebounced';

const SOMETHING_WRONG = 'Something went wrong. Please try again.';

/** The badges of an account in the list and its detail. */
function Badges({ u }: { u: AdminUser }) {
  return (
    <>
      {u.roles.map((r) => (
        <span key={r} className="admin__badge">
          {r}
        </span>
      ))}
      {u.suspended && <span className="admin__badge admin__badge--danger">suspended</span>}
      {!u.verified && <span className="admin__badge">unverified</span>}
    </>
  );
}

function suspensionText(u: AdminUser): string {
  const until = u.suspendedUntil ? `until ${fullDate(u.suspendedUntil)}` : 'for good';
  return `Suspended ${until}${u.suspensionReason ? ` — “${u.suspensionReason}”` : ''}`;
}

type Pending =
  | { kind: 'role'; role: Role; on: boolean }
  | { kind: 'reset' }
  | { kind: 'suspend' }
  | { kind: 'unsuspend' };

/** One account: what it is, and the admin's actions on it (none on one's own). */
function UserDetail({ user, onChanged }: { user: AdminUser; onChanged: (u: AdminUser) => void }) {
  const me = useAtomValue(currentUserAtom);
  const navigate = useSetAtom(navigateAtom);
  const toast = useSetAtom(showToastAtom);
  const [pending, setPending] = useState<Pending | null>(null);
  const [reason, setReason] = useState('');
  const [days, setDays] = useState(7);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const self = me?.id === user.id;

  const open = (p: Pending) => {
    setPending(p);
    setReason('');
    setDays(7);
    setError('');
  };

  const run = async (call: () => Promise<ActionResult>) => {
    setBusy(true);
    setError('');
    try {
      const res = await call();
      onChanged(res.user);
      toast({ message: res.message || 'Done', tone: 'success' });
      setPending(null);
    } catch (err) {
      const msg = isApiError(err) ? err.message : SOMETHING_WRONG;
      if (pending?.kind === 'suspend' || pending?.kind === 'unsuspend') setError(msg);
      else {
        toast({ message: msg, tone: 'error' });
        setPending(null);
      }
    } finally {
      setBusy(false);
    }
  };

  const submitSuspension = (e: FormEvent) => {
    e.preventDefault();
    if (pending?.kind === 'suspend') void run(() => suspend(user.id, reason, days));
    if (pending?.kind === 'unsuspend') void run(() => unsuspend(user.id, reason));
  };

  const roleButton = (role: Role) => {
    const has = user.roles.includes(role);
    return (
      <button
        type="button"
        className={`button button--sm ${has ? 'button--secondary' : 'button--ghost'}`}
        disabled={self}
        onClick={() => open({ kind: 'role', role, on: !has })}
      >
        {has ? `Remove ${role}` : `Make ${role}`}
      </button>
    );
  };

  const confirm =
    pending?.kind === 'role'
      ? {
          title: pending.on ? `Make ${user.name} ${pending.role === 'admin' ? 'an admin' : 'a moderator'}?` : `Remove ${user.name} as ${pending.role}?`,
          body:
            pending.role === 'admin'
              ? pending.on
                ? 'Admins can do everything moderators can, manage roles and see this console.'
                : 'They will no longer see this console or manage roles.'
              : pending.on
                ? 'Moderators see every report and can remove content and suspend accounts.'
                : 'They will no longer see the moderation queue.',
          label: pending.on ? `Make ${pending.role}` : `Remove ${pending.role}`,
          call: () => setRole(user.id, pending.role, pending.on, 'From the admin console'),
        }
      : pending?.kind === 'reset'
        ? {
            title: `Sign ${user.name} out everywhere?`,
            body: 'Every session ends at once and their open connections close; they can sign in again.',
            label: 'Sign out everywhere',
            call: () => resetSessions(user.id),
          }
        : null;

  return (
    <article className="admin__detail" aria-labelledby="admin-user-name">
      <header className="admin__detail-head">
        <h2 id="admin-user-name" className="admin__subtitle">
          {user.name}
        </h2>
        <Badges u={user} />
      </header>
      <dl className="admin__facts">
        <div>
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>Kind</dt>
          <dd>
            {user.kind}
            {user.universityId && <> · {user.universityId}</>}
            {user.department && <> · {user.department}</>}
          </dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>
            <time dateTime={user.createdAt}>{fullDate(user.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Posts</dt>
          <dd>{user.posts}</dd>
        </div>
        <div>
          <dt>Open reports about them</dt>
          <dd>{user.openReports}</dd>
        </div>
        <div>
          <dt>Roles</dt>
          <dd>{user.roles.length ? user.roles.join(', ') : 'Member'}</dd>
        </div>
        {user.suspended && (
          <div>
            <dt>Suspension</dt>
            <dd>{suspensionText(user)}</dd>
          </div>
        )}
      </dl>
      {self && <p className="admin__muted">This is your account: manage it from Settings.</p>}
      <div className="admin__actions" role="group" aria-label={`Actions on ${user.name}`}>
        <button
          type="button"
          className="button button--ghost button--sm"
          onClick={() => navigate({ page: 'profile', userId: user.id })}
        >
          View profile
        </button>
        {roleButton('moderator')}
        {roleButton('admin')}
        <button type="button" className="button button--secondary button--sm" disabled={self} onClick={() => open({ kind: 'reset' })}>
          Sign out everywhere
        </button>
        {user.suspended ? (
          <button type="button" className="button button--secondary button--sm" disabled={self} onClick={() => open({ kind: 'unsuspend' })}>
            Lift suspension
          </button>
        ) : (
          <button type="button" className="button button--danger button--sm" disabled={self} onClick={() => open({ kind: 'suspend' })}>
            Suspend
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title ?? ''}
        body={confirm?.body ?? ''}
        confirmLabel={confirm?.label ?? ''}
        busy={busy}
        onConfirm={() => confirm && void run(confirm.call)}
        onClose={() => setPending(null)}
      />
      <Modal
        open={pending?.kind === 'suspend' || pending?.kind === 'unsuspend'}
        onClose={() => setPending(null)}
        title={pending?.kind === 'suspend' ? `Suspend ${user.name}?` : `Lift ${user.name}'s suspension?`}
        size="sm"
        closable={!busy}
      >
        <form onSubmit={submitSuspension} className="admin__form">
          <label className="admin__field">
            <span>Reason (recorded in the audit log)</span>
            <textarea className="field__input" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} rows={3} required data-autofocus />
          </label>
          {pending?.kind === 'suspend' && (
            <label className="admin__field">
              <span>For how long</span>
              <select className="field__input" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                <option value={1}>1 day</option>
                <option value={7}>7 days</option>
                <option value={30}>30 days</option>
                <option value={0}>For good</option>
              </select>
            </label>
          )}
          {error && (
            <p className="admin__error" role="alert">
              {error}
            </p>
          )}
          <div className="modal__actions">
            <button type="button" className="button button--secondary" onClick={() => setPending(null)} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={busy || reason.trim() === ''}>
              {pending?.kind === 'suspend' ? 'Suspend' : 'Lift suspension'}
            </button>
          </div>
        </form>
      </Modal>
    </article>
  );
}

/** Users: search by name or e-mail, open one, act on it. */
export function AdminUsers() {
  const [query, setQuery] = useAtom(adminUserQueryAtom);
  const [selectedId, setSelectedId] = useAtom(adminSelectedUserAtom);
  const q = useDebounced(query);
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');

  const load = useCallback(async (search: string, after: string | null) => {
    try {
      const page = await fetchUsers(search, after);
      setUsers((prev) => (after ? [...prev, ...page.items] : page.items));
      setCursor(page.nextCursor);
      setStatus('ready');
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not load the accounts.');
      setStatus('error');
    }
  }, []);

  useEffect(() => {
    setStatus('loading');
    void load(q, null);
  }, [q, load]);

  // The open account, fresh from the server (also after coming back to the console).
  useEffect(() => {
    if (!selectedId) {
      setSelected(null);
      return;
    }
    let live = true;
    fetchUser(selectedId).then(
      (u) => live && setSelected(u),
      () => live && setSelectedId(null),
    );
    return () => {
      live = false;
    };
  }, [selectedId, setSelectedId]);

  const changed = (u: AdminUser) => {
    setSelected(u);
    setUsers((prev) => prev.map((x) => (x.id === u.id ? u : x)));
  };

  return (
    <div className="admin__section">
      <SearchField value={query} onChange={setQuery} label="Search accounts" placeholder="Name or e-mail" busy={status === 'loading'} />
      {status === 'error' && <p role="alert">{error}</p>}
      <div className="admin__split">
        <div>
          {status === 'ready' && users.length === 0 && <p className="admin__muted">No accounts match.</p>}
          <ul className="admin__list" aria-label="Accounts">
            {users.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  className={`admin__list-item${u.id === selectedId ? ' is-active' : ''}`}
                  aria-current={u.id === selectedId ? 'true' : undefined}
                  onClick={() => setSelectedId(u.id)}
                >
                  <span className="admin__list-name">{u.name}</span>
                  <span className="admin__muted">{u.email}</span>
                  <span className="admin__list-badges">
                    <Badges u={u} />
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {cursor && (
            <button type="button" className="button button--ghost" onClick={() => void load(q, cursor)}>
              Show more
            </button>
          )}
        </div>
        {selected ? (
          <UserDetail key={selected.id} user={selected} onChanged={changed} />
        ) : (
          <p className="admin__muted admin__hint">Choose an account to see it and act on it.</p>
        )}
      </div>
    </div>
  );
}
