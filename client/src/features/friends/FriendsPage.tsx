import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { userSubtitle, type UserSummary } from '../../api/models';
import { consumeFriendsTab, navigateAtom, type FriendsTab } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { CheckIcon, CloseIcon, MoreIcon, PlusUserIcon } from '../../ui/icons';
import { PullToRefresh } from '../../ui/PullToRefresh';
import { SearchField } from '../../ui/SearchField';
import { Skeleton } from '../../ui/Skeleton';
import { showToastAtom } from '../../ui/toast';
import { Modal } from '../../ui/Modal';
import { useOutsideClick } from '../../ui/useOutsideClick';
import { useMenuKeys } from '../../ui/useMenuKeys';
import { friendErrorMessage, MSG_REMOVE_FRIEND_FAILED, MSG_SEND_REQUEST_FAILED, type FriendRequest } from './friendsApi';
import {
  acceptRequestAtom,
  cancelRequestAtom,
  declineRequestAtom,
  friendsListAtom,
  loadAllFriendsDataAtom,
  receivedRequestsAtom,
  refreshFriendsTabAtom,
  requestsBadgeAtom,
  sendRequestAtom,
  sentRequestsAtom,
  suggestionsAtom,
  suggestionsBadgeAtom,
  unfriendAtom,
} from './friendsAtoms';
import './Friends.css';

const TABS: ReadonlyArray<{ id: FriendsTab; label: string }> = [
  { id: 'friends', label: 'Friends' },
  { id: 'requests', label: 'Requests' },
  { id: 'suggestions', label: 'Suggestions' },
];

/** Case-insensitive match on name or university ID. */
export function matchesUser(u: Pick<UserSummary, 'name' | 'universityId'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || u.name.toLowerCase().includes(q) || u.universityId.toLowerCase().includes(q);
}

function Empty({ title, text }: { title: string; text: string }) {
  return (
    <div className="empty-state friends-empty">
      <p className="empty-state__title">{title}</p>
      <p className="empty-state__text">{text}</p>
    </div>
  );
}

function ListSkeleton() {
  return (
    <ul className="friends-list" aria-hidden="true">
      {Array.from({ length: 3 }, (_, i) => (
        <li key={i} className="friends-row">
          <Skeleton round width={48} height={48} />
          <Skeleton width="40%" height={14} />
        </li>
      ))}
    </ul>
  );
}

/** Avatar and name, opening the profile (docs/product.md §2.15). */
function Person({ user, extra }: { user: UserSummary; extra?: React.ReactNode }) {
  const navigate = useSetAtom(navigateAtom);
  const open = () => navigate({ page: 'profile', userId: user.id });
  return (
    <div className="friends-person">
      <button type="button" className="friends-person__avatar" onClick={open} aria-label={`View ${user.name}'s profile`}>
        <Avatar name={user.name} url={user.avatar.thumbUrl || user.avatar.url} variants={user.avatar.variants} size={48} />
      </button>
      <span className="friends-person__text">
        <button type="button" className="friends-person__name" onClick={open}>
          {user.name}
        </button>
        <span className="friends-person__sub">{userSubtitle(user)}</span>
        {extra}
      </span>
    </div>
  );
}

/** One friend's row with its menu; only one menu is open at a time (the page holds which). */
function FriendRow({ user, menuOpen, onMenu }: { user: UserSummary; menuOpen: boolean; onMenu: (open: boolean) => void }) {
  const remove = useSetAtom(unfriendAtom);
  const toast = useSetAtom(showToastAtom);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useOutsideClick(ref, menuOpen, () => onMenu(false));
  useMenuKeys(ref, menuOpen, () => onMenu(false));

  // Unfriending asks first, as the profile page does (issue 16 #4).
  const doUnfriend = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      await remove(user.id);
    } catch (err) {
      setBusy(false);
      toast({ message: friendErrorMessage(err, MSG_REMOVE_FRIEND_FAILED), tone: 'error' });
    }
  };

  return (
    <li className="friends-row" aria-busy={busy}>
      <Person user={user} />
      <div ref={ref} className="friends-menu">
        <button
          type="button"
          className="icon-button"
          aria-label={`Options for ${user.name}`}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          disabled={busy}
          onClick={() => onMenu(!menuOpen)}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : <MoreIcon />}
        </button>
        {menuOpen && (
          <div className="friends-menu__list" role="menu">
            <button
              type="button"
              role="menuitem"
              className="friends-menu__item"
              onClick={() => {
                onMenu(false);
                setConfirming(true);
              }}
            >
              Unfriend
            </button>
          </div>
        )}
      </div>
      <Modal open={confirming} onClose={() => setConfirming(false)} title={`Unfriend ${user.name}?`} size="sm">
        <p className="muted">You will no longer be friends. You can send a new request any time.</p>
        <div className="profile-confirm">
          <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button type="button" className="button button--danger" onClick={() => void doUnfriend()} data-autofocus>
            Unfriend
          </button>
        </div>
      </Modal>
    </li>
  );
}

function useAction() {
  const toast = useSetAtom(showToastAtom);
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const run = async (key: string, fn: () => Promise<unknown>, fallback: string) => {
    setBusy((b) => ({ ...b, [key]: true }));
    try {
      await fn();
    } catch (err) {
      toast({ message: friendErrorMessage(err, fallback), tone: 'error' });
    } finally {
      setBusy((b) => {
        const next = { ...b };
        delete next[key];
        return next;
      });
    }
  };
  return { busy, run };
}

function FriendsList({ query }: { query: string }) {
  const friends = useAtomValue(friendsListAtom);
  const [menuFor, setMenuFor] = useState<string | null>(null);
  if (friends === null) return <ListSkeleton />;
  const shown = friends.filter((f) => matchesUser(f, query));
  if (shown.length === 0) return <Empty title="No friends found" text="Try adjusting your search or check out suggestions" />;
  return (
    <ul className="friends-list">
      {shown.map((f) => (
        <FriendRow
          key={f.id}
          user={f}
          menuOpen={menuFor === f.id}
          onMenu={(open) => setMenuFor((cur) => (open ? f.id : cur === f.id ? null : cur))}
        />
      ))}
    </ul>
  );
}

function RequestsList({ query }: { query: string }) {
  const received = useAtomValue(receivedRequestsAtom);
  const sent = useAtomValue(sentRequestsAtom);
  const accept = useSetAtom(acceptRequestAtom);
  const decline = useSetAtom(declineRequestAtom);
  const cancel = useSetAtom(cancelRequestAtom);
  const { busy, run } = useAction();
  const rec = (received ?? []).filter((r) => matchesUser(r.sender, query));
  const out = (sent ?? []).filter((r) => r.status === 'pending' && matchesUser(r.receiver, query));

  return (
    <div className="friends-requests">
      <section aria-labelledby="received-title">
        <h2 id="received-title" className="friends-section-title">
          Received Requests
        </h2>
        {received === null ? (
          <ListSkeleton />
        ) : rec.length === 0 ? (
          <Empty title="No friend requests" text="You don't have any pending friend requests" />
        ) : (
          <ul className="friends-list">
            {rec.map((r: FriendRequest) => (
              <li key={r.id} className="friends-row">
                <Person user={r.sender} />
                <div className="friends-actions">
                  <button
                    type="button"
                    className="button button--primary button--sm"
                    disabled={busy[r.id]}
                    onClick={() => void run(r.id, () => accept(r), 'Failed to accept friend request')}
                    aria-label={`Accept ${r.sender.name}'s request`}
                  >
                    <CheckIcon size={16} /> Accept
                  </button>
                  <button
                    type="button"
                    className="button button--secondary button--sm"
                    disabled={busy[r.id]}
                    onClick={() => void run(r.id, () => decline(r), 'Failed to decline friend request')}
                    aria-label={`Decline ${r.sender.name}'s request`}
                  >
                    <CloseIcon size={16} /> Decline
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="sent-title">
        <h2 id="sent-title" className="friends-section-title">
          Sent Requests
        </h2>
        {sent === null ? (
          <ListSkeleton />
        ) : out.length === 0 ? (
          <Empty title="No sent requests" text="You haven't sent any friend requests yet" />
        ) : (
          <ul className="friends-list">
            {out.map((r) => (
              <li key={r.id} className="friends-row">
                <Person user={r.receiver} extra={<span className="friends-pending">Pending approval</span>} />
                <button
                  type="button"
                  className="button button--secondary button--sm"
                  disabled={busy[r.id]}
                  onClick={() => void run(r.id, () => cancel(r), 'Failed to cancel friend request')}
                  aria-label={`Cancel request to ${r.receiver.name}`}
                >
                  Cancel Request
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function SuggestionsList({ query }: { query: string }) {
  const suggestions = useAtomValue(suggestionsAtom);
  const send = useSetAtom(sendRequestAtom);
  const { busy, run } = useAction();
  if (suggestions === null) return <ListSkeleton />;
  const shown = suggestions.filter((s) => matchesUser(s.user, query));
  return (
    <section aria-labelledby="suggestions-title">
      <h2 id="suggestions-title" className="friends-section-title">
        People you may know
      </h2>
      {shown.length === 0 ? (
        <Empty title="No suggestions found" text="Try adjusting your search criteria" />
      ) : (
        <ul className="friends-list">
          {shown.map((s) => (
            <li key={s.user.id} className="friends-row">
              <Person
                user={s.user}
                extra={
                  s.mutualFriends > 0 ? (
                    <span className="friends-person__sub">
                      {s.mutualFriends} mutual friend{s.mutualFriends === 1 ? '' : 's'}
                    </span>
                  ) : undefined
                }
              />
              <button
                type="button"
                className="button button--primary button--sm"
                disabled={busy[s.user.id]}
                onClick={() => void run(s.user.id, () => send(s.user), MSG_SEND_REQUEST_FAILED)}
              >
                <PlusUserIcon size={16} /> {busy[s.user.id] ? 'Sending...' : 'Add Friend'}
                <span className="visually-hidden"> {s.user.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** docs/product.md §2.15 Friends screen: three tabs with badges, lists, actions, pull-to-refresh. */
export function FriendsPage() {
  const [tab, setTab] = useState<FriendsTab>(() => consumeFriendsTab() ?? 'friends');
  const [query, setQuery] = useState('');
  const loadAll = useSetAtom(loadAllFriendsDataAtom);
  const refreshTab = useSetAtom(refreshFriendsTabAtom);
  const requestsBadge = useAtomValue(requestsBadgeAtom);
  const suggestionsBadge = useAtomValue(suggestionsBadgeAtom);

  useEffect(() => {
    void loadAll();
  }, [loadAll]);

  const badges = useMemo<Record<FriendsTab, number>>(
    () => ({ friends: 0, requests: requestsBadge, suggestions: suggestionsBadge }),
    [requestsBadge, suggestionsBadge],
  );

  return (
    <section className="friends-page card" aria-labelledby="friends-title">
      <h1 id="friends-title" className="friends-page__title">
        Friends
      </h1>
      <div className="friends-tabs" role="tablist" aria-label="Friends tabs">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`friends-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="friends-tabpanel"
            className={`friends-tabs__tab${tab === t.id ? ' is-active' : ''}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
            {badges[t.id] > 0 && (
              <span className="badge" aria-label={`${badges[t.id]} ${t.id === 'requests' ? 'requests' : 'suggestions'}`}>
                {badges[t.id]}
              </span>
            )}
          </button>
        ))}
      </div>
      <SearchField value={query} onChange={setQuery} label="Search people" placeholder="Search by name or university ID" />
      <PullToRefresh onRefresh={() => refreshTab(tab)} className="friends-panel">
        <div id="friends-tabpanel" role="tabpanel" aria-labelledby={`friends-tab-${tab}`}>
          {tab === 'friends' && <FriendsList query={query} />}
          {tab === 'requests' && <RequestsList query={query} />}
          {tab === 'suggestions' && <SuggestionsList query={query} />}
        </div>
      </PullToRefresh>
    </section>
  );
}
