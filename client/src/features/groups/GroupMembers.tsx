import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/http';
import { userSubtitle, type UserSummary } from '../../api/models';
import { navigateAtom } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { MoreIcon } from '../../ui/icons';
import { Skeleton } from '../../ui/Skeleton';
import { showToastAtom } from '../../ui/toast';
import { useOutsideClick } from '../../ui/useOutsideClick';
import { useMenuKeys } from '../../ui/useMenuKeys';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import {
  answerJoinRequest,
  fetchJoinRequests,
  fetchMembers,
  removeMember,
  setMemberRole,
  transferOwnership,
  type Page,
} from './groupsApi';
import { loadGroupAtom } from './groupsAtoms';
import { memberActions, type Group, type GroupMember, type JoinRequest } from './model';

type ListState<T> = { items: T[]; cursor: string | null; status: 'loading' | 'ready' | 'error' | 'forbidden' };

/**
 * A paged list of one group's members or join requests. It is this screen's
 * own state (nothing else shows it), fetched when the tab opens.
 */
function usePagedList<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>) {
  const [state, setState] = useState<ListState<T>>({ items: [], cursor: null, status: 'loading' });
  const gen = useRef(0);
  // The cursor is read when more is asked for, not a reason to make a new `load`.
  const cursor = useRef<string | null>(null);
  cursor.current = state.cursor;
  const load = useCallback(
    async (more: boolean) => {
      const g = more ? gen.current : ++gen.current;
      try {
        const page = await fetchPage(more ? cursor.current : null);
        if (g !== gen.current) return;
        setState((s) => ({ items: more ? [...s.items, ...page.items] : page.items, cursor: page.nextCursor, status: 'ready' }));
      } catch (err) {
        if (g !== gen.current) return;
        const forbidden = isApiError(err) && (err.status === 403 || err.status === 404);
        setState((s) => ({ ...s, status: forbidden ? 'forbidden' : 'error' }));
      }
    },
    [fetchPage],
  );
  return { state, setState, load };
}

function Person({ user, sub }: { user: UserSummary; sub?: string }) {
  const navigate = useSetAtom(navigateAtom);
  const open = () => navigate({ page: 'profile', userId: user.id });
  return (
    <span className="group-person">
      <button type="button" className="group-person__avatar" onClick={open} aria-label={`View ${user.name}'s profile`}>
        <Avatar name={user.name} url={user.avatar.thumbUrl || user.avatar.url} variants={user.avatar.variants} />
      </button>
      <span className="group-person__text">
        <button type="button" className="group-person__name" onClick={open}>
          {user.name}
        </button>
        <span className="group-person__sub">{sub ?? userSubtitle(user)}</span>
      </span>
    </span>
  );
}

const ROLE_LABEL: Record<GroupMember['role'], string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

type MemberOp = 'promote' | 'demote' | 'remove' | 'transfer';

function MemberRow({ group, member, viewerId, onChanged }: { group: Group; member: GroupMember; viewerId: string; onChanged: () => void }) {
  const toast = useSetAtom(showToastAtom);
  const reloadGroup = useSetAtom(loadGroupAtom);
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState<MemberOp | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useOutsideClick(ref, open, () => setOpen(false));
  useMenuKeys(ref, open, () => setOpen(false));
  const can = memberActions(group, member, viewerId);
  const ops: { op: MemberOp; label: string }[] = [
    ...(can.promote ? [{ op: 'promote' as const, label: 'Make admin' }] : []),
    ...(can.demote ? [{ op: 'demote' as const, label: 'Remove as admin' }] : []),
    ...(can.transfer ? [{ op: 'transfer' as const, label: 'Make owner' }] : []),
    ...(can.remove ? [{ op: 'remove' as const, label: 'Remove from group' }] : []),
  ];
  const name = member.user.name;

  const run = async (op: MemberOp) => {
    setBusy(true);
    try {
      if (op === 'promote' || op === 'demote') await setMemberRole(group.handle, member.user.id, op === 'promote' ? 'admin' : 'member');
      if (op === 'remove') await removeMember(group.handle, member.user.id);
      if (op === 'transfer') await transferOwnership(group.handle, member.user.id);
      const done: Record<MemberOp, string> = {
        promote: `${name} is now an admin`,
        demote: `${name} is no longer an admin`,
        remove: `${name} was removed from the group`,
        transfer: `${name} now owns the group`,
      };
      toast({ message: done[op], tone: 'success' });
      setConfirm(null);
      onChanged();
      // My own role (a transfer) and the member count change with these.
      void reloadGroup(group.handle);
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not change the membership. Please try again.', tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const confirmText: Record<MemberOp, { title: string; body: string; label: string }> = {
    promote: { title: `Make ${name} an admin?`, body: 'Admins approve requests, remove members and posts, and pin posts.', label: 'Make admin' },
    demote: { title: `Remove ${name} as admin?`, body: 'They stay a member of the group.', label: 'Remove as admin' },
    remove: { title: `Remove ${name} from the group?`, body: 'They can ask to join again.', label: 'Remove' },
    transfer: { title: `Make ${name} the owner?`, body: 'You will become an admin. Only the new owner can give it back.', label: 'Make owner' },
  };

  return (
    <li className="group-member" aria-busy={busy}>
      <Person user={member.user} />
      {member.role !== 'member' && <span className={`group-role group-role--${member.role}`}>{ROLE_LABEL[member.role]}</span>}
      {ops.length > 0 && (
        <div ref={ref} className="group-member__menu">
          <button
            type="button"
            className="icon-button"
            aria-label={`Options for ${name}`}
            aria-haspopup="menu"
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            <MoreIcon />
          </button>
          {open && (
            <div className="post-menu__list" role="menu">
              {ops.map((o) => (
                <button
                  key={o.op}
                  type="button"
                  role="menuitem"
                  className={`post-menu__item${o.op === 'remove' ? ' post-menu__item--danger' : ''}`}
                  onClick={() => {
                    setOpen(false);
                    setConfirm(o.op);
                  }}
                >
                  {o.label}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
      {confirm && (
        <ConfirmDialog
          open
          title={confirmText[confirm].title}
          body={confirmText[confirm].body}
          confirmLabel={confirmText[confirm].label}
          busy={busy}
          onConfirm={() => void run(confirm)}
          onClose={() => setConfirm(null)}
        />
      )}
    </li>
  );
}

function ListSkeleton() {
  return (
    <ul className="group-people" aria-hidden="true">
      {Array.from({ length: 3 }, (_, i) => (
        <li key={i} className="group-member">
          <Skeleton round width={40} height={40} />
          <Skeleton width="40%" height={14} />
        </li>
      ))}
    </ul>
  );
}

/** The member list, with the owner's and admins' actions on each member. */
export function MembersPanel({ group, viewerId }: { group: Group; viewerId: string }) {
  const fetchPage = useCallback((cursor: string | null) => fetchMembers(group.handle, cursor), [group.handle]);
  const { state, load } = usePagedList(fetchPage);
  const role = group.me.role;
  // Reloads when my role changes (a transfer): my actions on others change too.
  useEffect(() => {
    void load(false);
  }, [load, role]);

  return (
    <section className="card group-list-card" aria-labelledby="group-members-title">
      <h2 id="group-members-title" className="group-list-card__title">
        Members <span className="muted">· {group.membersCount.toLocaleString('en-US')}</span>
      </h2>
      {state.status === 'forbidden' && <p className="muted">Only members can see who is in this group.</p>}
      {state.status === 'error' && (
        <p className="muted">
          Couldn't load members.{' '}
          <button type="button" className="link-button" onClick={() => void load(false)}>
            Try again
          </button>
        </p>
      )}
      {state.status === 'loading' && state.items.length === 0 && <ListSkeleton />}
      {state.items.length > 0 && (
        <ul className="group-people" aria-labelledby="group-members-title">
          {state.items.map((m) => (
            <MemberRow key={m.user.id} group={group} member={m} viewerId={viewerId} onChanged={() => void load(false)} />
          ))}
        </ul>
      )}
      {state.cursor !== null && state.status === 'ready' && (
        <button type="button" className="button button--secondary button--block" onClick={() => void load(true)}>
          Show more members
        </button>
      )}
    </section>
  );
}

/** Join requests, for the owner and admins: approve or decline each. */
export function RequestsPanel({ group }: { group: Group }) {
  const fetchPage = useCallback((cursor: string | null) => fetchJoinRequests(group.handle, cursor), [group.handle]);
  const { state, setState, load } = usePagedList<JoinRequest>(fetchPage);
  const toast = useSetAtom(showToastAtom);
  const reloadGroup = useSetAtom(loadGroupAtom);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    void load(false);
  }, [load]);

  const answer = async (r: JoinRequest, approve: boolean) => {
    setBusy(r.user.id);
    try {
      await answerJoinRequest(group.handle, r.user.id, approve);
      setState((s) => ({ ...s, items: s.items.filter((x) => x.user.id !== r.user.id) }));
      toast({ message: approve ? `${r.user.name} joined the group` : `Request from ${r.user.name} declined`, tone: 'success' });
      if (approve) void reloadGroup(group.handle);
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not answer the request. Please try again.', tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card group-list-card" aria-labelledby="group-requests-title">
      <h2 id="group-requests-title" className="group-list-card__title">
        Join requests
      </h2>
      {state.status === 'error' && (
        <p className="muted">
          Couldn't load requests.{' '}
          <button type="button" className="link-button" onClick={() => void load(false)}>
            Try again
          </button>
        </p>
      )}
      {state.status === 'loading' && state.items.length === 0 && <ListSkeleton />}
      {state.status === 'ready' && state.items.length === 0 && <p className="muted">No one is waiting to join.</p>}
      {state.items.length > 0 && (
        <ul className="group-people" aria-labelledby="group-requests-title">
          {state.items.map((r) => (
            <li key={r.user.id} className="group-member" aria-busy={busy === r.user.id}>
              <Person user={r.user} />
              <span className="group-member__buttons">
                <button
                  type="button"
                  className="button button--primary button--sm"
                  disabled={busy === r.user.id}
                  aria-label={`Approve ${r.user.name}`}
                  onClick={() => void answer(r, true)}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className="button button--secondary button--sm"
                  disabled={busy === r.user.id}
                  aria-label={`Decline ${r.user.name}`}
                  onClick={() => void answer(r, false)}
                >
                  Decline
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {state.cursor !== null && state.status === 'ready' && (
        <button type="button" className="button button--secondary button--block" onClick={() => void load(true)}>
          Show more requests
        </button>
      )}
    </section>
  );
}
