import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useId, useRef, useState } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { fullDate } from '../../lib/time';
import { checkImageFile, IMAGE_ACCEPT } from '../../lib/imageFiles';
import { Avatar } from '../../ui/Avatar';
import { CameraIcon } from '../../ui/icons';
import { PullToRefresh } from '../../ui/PullToRefresh';
import { PostSkeleton, Skeleton } from '../../ui/Skeleton';
import { showToastAtom } from '../../ui/toast';
import { currentUserAtom } from '../auth/authAtoms';
import { Composer } from '../posts/Composer';
import { CreatePostDialog } from '../posts/CreatePostDialog';
import { PostCard } from '../posts/PostCard';
import { fetchPost } from '../posts/postsApi';
import { postAtom, upsertPostsAtom } from '../posts/postsAtoms';
import { notificationsAtom } from '../notifications/notificationsAtoms';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { GroupFormDialog } from './GroupFormDialog';
import { MembersPanel, RequestsPanel } from './GroupMembers';
import {
  deleteGroupAtom,
  groupAtom,
  groupFeedAtom,
  groupStatusOf,
  loadGroupAtom,
  loadGroupFeedAtom,
  loadMoreGroupFeedAtom,
  pinPostAtom,
  setFollowCloselyAtom,
  uploadGroupImageAtom,
} from './groupsAtoms';
import { InviteDialog } from './InviteDialog';
import { JoinButton } from './JoinButton';
import {
  canInvite,
  canReadPosts,
  eventSpan,
  groupSummary,
  isAdmin,
  isMember,
  isOwner,
  KIND_LABELS,
  VISIBILITY_HELP,
  VISIBILITY_LABELS,
  type Group,
} from './model';
import './Groups.css';

type Tab = 'posts' | 'about' | 'members' | 'requests';

/** An admin's picture upload: a camera button over the cover or the avatar. */
function ImageUpload({ group, which }: { group: Group; which: 'avatar' | 'cover' }) {
  const upload = useSetAtom(uploadGroupImageAtom);
  const toast = useSetAtom(showToastAtom);
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const label = which === 'cover' ? 'Change cover photo' : 'Change group picture';
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      toast({ message: problem, tone: 'error' });
      return;
    }
    setProgress(0);
    try {
      await upload({ handle: group.handle, which, file, onProgress: setProgress });
      toast({ message: which === 'cover' ? 'Cover photo updated' : 'Group picture updated', tone: 'success' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Upload failed. Please try again.', tone: 'error' });
    } finally {
      setProgress(null);
    }
  };
  return (
    <>
      <button
        type="button"
        className={`icon-button group-hero__upload group-hero__upload--${which}`}
        aria-label={label}
        title={label}
        disabled={progress !== null}
        onClick={() => input.current?.click()}
      >
        {progress !== null ? <span className="group-hero__progress">{progress}%</span> : <CameraIcon size={18} />}
      </button>
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={label}
        data-testid={`group-${which}-input`}
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </>
  );
}

/** Notify me of every new post (off by default). */
function FollowToggle({ group }: { group: Group }) {
  const setFollow = useSetAtom(setFollowCloselyAtom);
  const toast = useSetAtom(showToastAtom);
  const on = group.me.followClosely;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      className={`button button--secondary group-follow${on ? ' is-on' : ''}`}
      onClick={() =>
        void setFollow({ handle: group.handle, closely: !on }).catch((err: unknown) =>
          toast({ message: isApiError(err) ? err.message : 'Could not change notifications. Please try again.', tone: 'error' }),
        )
      }
    >
      <span className="group-follow__track" aria-hidden="true">
        <span className="group-follow__thumb" />
      </span>
      Notify me of every post
    </button>
  );
}

function Hero({ group, onEdit, onInvite, onDelete }: { group: Group; onEdit: () => void; onInvite: () => void; onDelete: () => void }) {
  const navigate = useSetAtom(navigateAtom);
  const admin = isAdmin(group);
  const span = group.kind === 'event' ? eventSpan(group.startsAt, group.endsAt) : '';
  // The group's chat, for its members (the server says its id to them only).
  const chatId = isMember(group) ? group.chatId : null;
  return (
    <header className="card group-hero">
      <div className="group-hero__cover">
        {group.coverUrl && <img src={group.coverUrl} alt="" className="group-hero__cover-img" />}
        {admin && <ImageUpload group={group} which="cover" />}
      </div>
      <div className="group-hero__body">
        <div className="group-hero__avatar">
          <Avatar name={group.name} url={group.avatarUrl} size={88} className="group-avatar" />
          {admin && <ImageUpload group={group} which="avatar" />}
        </div>
        <div className="group-hero__text">
          <h1 className="group-hero__name">{group.name}</h1>
          <p className="group-hero__sub">
            {groupSummary(group)}
            <span className="group-hero__handle"> · /g/{group.handle}</span>
          </p>
          {span && <p className="group-hero__when">{span}</p>}
          {group.me.status === 'invited' && <p className="group-hero__note">You're invited to join this group.</p>}
          {group.me.status === 'requested' && <p className="group-hero__note">Your request to join is waiting for an admin.</p>}
        </div>
        <div className="group-hero__actions">
          <JoinButton group={group} />
          {canInvite(group) && (
            <button type="button" className="button button--secondary" onClick={onInvite}>
              Invite
            </button>
          )}
          {admin && (
            <button type="button" className="button button--secondary" onClick={onEdit}>
              Edit group
            </button>
          )}
          {chatId && (
            <a
              className="button button--secondary"
              href={`/messages/${encodeURIComponent(chatId)}`}
              onClick={(e) => {
                if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                e.preventDefault();
                navigate({ page: 'conversation', conversationId: chatId });
              }}
            >
              Open chat
            </a>
          )}
          {(group.kind === 'event' || admin) && canReadPosts(group) && (
            <a
              className="button button--secondary"
              href={`/g/${encodeURIComponent(group.handle)}/live`}
              onClick={(e) => {
                if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                e.preventDefault();
                navigate({ page: 'groupLive', handle: group.handle });
              }}
            >
              Big screen
            </a>
          )}
          {isOwner(group) && (
            <button type="button" className="button button--ghost group-hero__delete" onClick={onDelete}>
              Delete group
            </button>
          )}
        </div>
        {isMember(group) && <FollowToggle group={group} />}
      </div>
    </header>
  );
}

function About({ group }: { group: Group }) {
  const span = group.kind === 'event' ? eventSpan(group.startsAt, group.endsAt) : '';
  return (
    <div className="card group-about">
      <h2 className="group-about__title">About</h2>
      {group.description ? <p className="group-about__text">{group.description}</p> : <p className="muted">No description yet.</p>}
      <dl className="group-about__facts">
        <div>
          <dt>Kind</dt>
          <dd>{KIND_LABELS[group.kind]}</dd>
        </div>
        <div>
          <dt>Visibility</dt>
          <dd>
            {VISIBILITY_LABELS[group.visibility]} — {VISIBILITY_HELP[group.visibility]}
          </dd>
        </div>
        {span && (
          <div>
            <dt>When</dt>
            <dd>{span}</dd>
          </div>
        )}
        {group.course && (
          <div>
            <dt>Course</dt>
            <dd>
              {group.course.program} {group.course.batch}: students of this program and batch join in one click
            </dd>
          </div>
        )}
        <div>
          <dt>Members</dt>
          <dd>{group.membersCount.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Posts</dt>
          <dd>{group.postsCount.toLocaleString('en-US')}</dd>
        </div>
        {group.createdAt && (
          <div>
            <dt>Created</dt>
            <dd>{fullDate(group.createdAt)}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}

/** The pinned post, fetched when the feed has not brought it. */
function PinnedPost({ group, menuFor }: { group: Group; menuFor: (postId: string) => { label: string; onSelect: () => void }[] }) {
  const id = group.pinnedPostId ?? '';
  const post = useAtomValue(postAtom(id));
  const upsert = useSetAtom(upsertPostsAtom);
  useEffect(() => {
    if (!id || post) return;
    fetchPost(id)
      .then(({ post: p }) => upsert([p]))
      .catch(() => {
        // deleted since: nothing pinned to show
      });
  }, [id, post, upsert]);
  if (!id || !post) return null;
  return <PostCard postId={id} badge="Pinned post" hideGroup canModerate={isAdmin(group)} menuExtra={menuFor(id)} />;
}

function Posts({ group }: { group: Group }) {
  const feed = useAtomValue(groupFeedAtom(group.handle));
  const load = useSetAtom(loadGroupFeedAtom);
  const loadMore = useSetAtom(loadMoreGroupFeedAtom);
  const pin = useSetAtom(pinPostAtom);
  const toast = useSetAtom(showToastAtom);
  const [composing, setComposing] = useState(false);
  const readable = canReadPosts(group);
  const admin = isAdmin(group);

  useEffect(() => {
    if (readable) void load(group.handle);
  }, [readable, group.handle, load]);

  if (!readable) {
    return (
      <div className="card empty-state group-locked">
        <p className="empty-state__title">{group.visibility === 'closed' ? 'This group is closed' : 'This group is private'}</p>
        <p className="empty-state__text">Only members can see its posts.</p>
        <JoinButton group={group} />
      </div>
    );
  }

  const menuFor = (postId: string) =>
    admin
      ? [
          {
            label: group.pinnedPostId === postId ? 'Unpin post' : 'Pin post',
            onSelect: () =>
              void pin({ handle: group.handle, postId: group.pinnedPostId === postId ? null : postId })
                .then(() => toast({ message: group.pinnedPostId === postId ? 'Post unpinned' : 'Post pinned', tone: 'success' }))
                .catch((err: unknown) => toast({ message: isApiError(err) ? err.message : 'Could not pin the post.', tone: 'error' })),
          },
        ]
      : [];

  const ids = feed.ids.filter((id) => id !== group.pinnedPostId);
  return (
    <>
      {isMember(group) && <Composer onOpen={() => setComposing(true)} />}
      <PinnedPost group={group} menuFor={menuFor} />
      <PullToRefresh
        onRefresh={() => load(group.handle)}
        onLoadMore={() => void loadMore(group.handle)}
        hasMore={feed.hasMore}
        loadingMore={feed.loadingMore}
        className="feed"
      >
        {(feed.status === 'idle' || feed.status === 'loading') && ids.length === 0 && (
          <div className="feed__list" aria-busy="true" aria-label="Loading posts">
            <PostSkeleton />
            <PostSkeleton />
          </div>
        )}
        {feed.status === 'error' && ids.length === 0 && (
          <div className="card empty-state">
            <p className="empty-state__title">Couldn't load posts</p>
            <button type="button" className="button button--secondary" onClick={() => void load(group.handle)}>
              Try again
            </button>
          </div>
        )}
        {feed.status === 'ready' && ids.length === 0 && !group.pinnedPostId && (
          <div className="card empty-state">
            <p className="empty-state__title">No posts yet</p>
            {isMember(group) && <p className="empty-state__text">Start the conversation.</p>}
          </div>
        )}
        {ids.length > 0 && (
          <div className="feed__list">
            {ids.map((id) => (
              <PostCard key={id} postId={id} hideGroup canModerate={admin} menuExtra={menuFor(id)} />
            ))}
          </div>
        )}
        {feed.loadingMore && <PostSkeleton />}
        {feed.hasMore && !feed.loadingMore && ids.length > 0 && (
          <button type="button" className="button button--secondary button--block feed__more" onClick={() => void loadMore(group.handle)}>
            Load more posts
          </button>
        )}
      </PullToRefresh>
      <CreatePostDialog open={composing} onClose={() => setComposing(false)} group={{ id: group.id, name: group.name }} />
    </>
  );
}

function GroupSkeleton() {
  return (
    <div className="group-page" aria-busy="true">
      <div className="card group-hero">
        <Skeleton height={160} />
        <div className="group-hero__body">
          <Skeleton width={88} height={88} />
          <Skeleton width="40%" height={24} />
        </div>
      </div>
      <span className="visually-hidden" role="status">
        Loading group…
      </span>
    </div>
  );
}

/** `/g/{handle}` (issue 18): the group's hero, then Posts, About, Members and (admins) Requests. */
export function GroupPage({ handle }: { handle: string }) {
  const group = useAtomValue(groupAtom(handle));
  const status = useAtomValue(groupStatusOf(handle));
  const me = useAtomValue(currentUserAtom);
  const load = useSetAtom(loadGroupAtom);
  const remove = useSetAtom(deleteGroupAtom);
  const navigate = useSetAtom(navigateAtom);
  const toast = useSetAtom(showToastAtom);
  const [tab, setTab] = useState<Tab>('posts');
  const [editing, setEditing] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const tabsId = useId();

  useEffect(() => {
    void load(handle);
  }, [handle, load]);

  // A live notification about this group changes what is here: my request
  // approved or an invitation (what I may do: read the group again), a new
  // post for a close follower (the feed: read it again).
  const latest = useAtomValue(notificationsAtom)[0];
  const latestKey = latest?.group?.handle === handle ? `${latest.type}:${latest.id}:${latest.timestamp}` : '';
  const seenKey = useRef(latestKey);
  const loadFeed = useSetAtom(loadGroupFeedAtom);
  useEffect(() => {
    if (!latestKey || latestKey === seenKey.current) return; // the page's first load covers the older ones
    seenKey.current = latestKey;
    if (latestKey.startsWith('group_post:')) void loadFeed(handle);
    else void load(handle);
  }, [latestKey, handle, load, loadFeed]);

  if (!group) {
    if (status === 'notfound') {
      return (
        <div className="group-page">
          <div className="card empty-state">
            <h1 className="empty-state__title">Group not found</h1>
            <p className="empty-state__text">It may have been deleted, or it is private.</p>
            <button type="button" className="button button--secondary" onClick={() => navigate({ page: 'groups' })}>
              Browse groups
            </button>
          </div>
        </div>
      );
    }
    if (status === 'error') {
      return (
        <div className="group-page">
          <div className="card empty-state">
            <h1 className="empty-state__title">Couldn't load the group</h1>
            <button type="button" className="button button--secondary" onClick={() => void load(handle)}>
              Try again
            </button>
          </div>
        </div>
      );
    }
    return <GroupSkeleton />;
  }

  const admin = isAdmin(group);
  const tabs: { id: Tab; label: string }[] = [
    { id: 'posts', label: 'Posts' },
    { id: 'about', label: 'About' },
    { id: 'members', label: 'Members' },
    ...(admin ? [{ id: 'requests' as const, label: 'Requests' }] : []),
  ];
  const shown: Tab = tabs.some((t) => t.id === tab) ? tab : 'posts';

  const onDelete = async () => {
    setDeleteBusy(true);
    try {
      await remove(group.handle);
      toast({ message: `${group.name} was deleted`, tone: 'success' });
      navigate({ page: 'groups' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not delete the group.', tone: 'error' });
      setDeleteBusy(false);
      setDeleting(false);
    }
  };

  return (
    <div className="group-page">
      <Hero group={group} onEdit={() => setEditing(true)} onInvite={() => setInviting(true)} onDelete={() => setDeleting(true)} />
      <div className="group-tabs" role="tablist" aria-label="Group sections">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${tabsId}-${t.id}`}
            aria-selected={shown === t.id}
            aria-controls={`${tabsId}-panel`}
            tabIndex={shown === t.id ? 0 : -1}
            className={`group-tabs__tab${shown === t.id ? ' is-active' : ''}`}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              // Arrow keys move between tabs (WAI-ARIA tabs pattern).
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              const i = tabs.findIndex((x) => x.id === shown);
              const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
              setTab(next.id);
              document.getElementById(`${tabsId}-${next.id}`)?.focus();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${shown}`} className="group-panel">
        {shown === 'posts' && <Posts group={group} />}
        {shown === 'about' && <About group={group} />}
        {shown === 'members' && <MembersPanel group={group} viewerId={me?.id ?? ''} />}
        {shown === 'requests' && admin && <RequestsPanel group={group} />}
      </div>

      {admin && <GroupFormDialog open={editing} onClose={() => setEditing(false)} group={group} />}
      {canInvite(group) && <InviteDialog open={inviting} onClose={() => setInviting(false)} group={group} />}
      {isOwner(group) && (
        <ConfirmDialog
          open={deleting}
          title={`Delete ${group.name}?`}
          body="This removes the group and its memberships for everyone. It can't be undone."
          confirmLabel="Delete group"
          busy={deleteBusy}
          onConfirm={() => void onDelete()}
          onClose={() => setDeleting(false)}
        />
      )}
    </div>
  );
}
