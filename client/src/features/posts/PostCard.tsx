import { useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useRef, useState } from 'react';
import { userSubtitle } from '../../api/models';
import { navigateAtom } from '../../lib/navigation';
import { fullDate, relativeTime } from '../../lib/time';
import { Avatar } from '../../ui/Avatar';
import { ChunkBoundary } from '../../ui/ChunkBoundary';
import { BookmarkIcon, CommentIcon, HeartIcon, RepostIcon } from '../../ui/icons';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { RichText } from '../search/RichText';
import { showToastAtom } from '../../ui/toast';
import { currentUserAtom } from '../auth/authAtoms';
import { LazyComments, LazyEditPostDialog, LazyReportDialog, LazyRepostDialog } from './lazyParts';
import { postLink, type Comment, type Post } from './model';
import { isApiError } from '../../api/http';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { blockAuthorAtom, muteAuthorAtom } from './authorSafetyAtoms';
import { PostMenu, type PostMenuExtra } from './PostMenu';
import { deletePostAtom, likePendingAtom, postAtom, toggleLikeAtom, toggleSaveAtom, unrepostAtom } from './postsAtoms';
import { copyText, MSG_LINK_COPIED } from './share';
import { ShareButton } from './ShareButton';
import { useWatchPost } from './useWatchPost';
import { PostImages } from './PostImages';
import './PostCard.css';

const CLAMP_CHARS = 600;

export interface PostCardProps {
  postId: string;
  /** Show the comments from the start (the post page). */
  commentsOpen?: boolean;
  initialComments?: Comment[];
  initialCommentsCursor?: string | null;
  /** The viewer runs the post's group (owner or admin): may delete it (GROUPS_API). */
  canModerate?: boolean;
  /** Extra menu entries (a group admin's Pin post). */
  menuExtra?: readonly PostMenuExtra[];
  /** Shown above the header (a group's pinned post says so). */
  badge?: string;
  /** Hide the group link (on the group's own page it says nothing new). */
  hideGroup?: boolean;
  /** Inside a repost entry's card (issue 27): no card frame of its own. */
  embedded?: boolean;
}

/**
 * docs/product.md §2.13 post card: author, content, images, like, comments,
 * share, menu; and (issue 27) repost and save. A repost entry is its own
 * card, "X reposted" with the comment, wrapping the original's.
 */
export function PostCard(props: PostCardProps) {
  const post = useAtomValue(postAtom(props.postId));
  if (post?.repostOf) return <RepostEntry entry={post} original={post.repostOf} />;
  return <OwnPostCard {...props} />;
}

function RepostEntry({ entry, original }: { entry: Post; original: Post }) {
  const navigate = useSetAtom(navigateAtom);
  const { author } = entry;
  return (
    <article className="card post-card post-card--repost" aria-labelledby={`post-${entry.id}-author`} data-post-id={entry.id}>
      <p className="post-card__reposted">
        <RepostIcon size={14} />
        <button type="button" id={`post-${entry.id}-author`} className="post-card__author" onClick={() => navigate({ page: 'profile', userId: author.id })}>
          {author.name}
        </button>{' '}
        <span>reposted</span>
        {entry.createdAt && (
          <time dateTime={entry.createdAt} title={fullDate(entry.createdAt)}>
            {' · '}
            {relativeTime(entry.createdAt)}
          </time>
        )}
      </p>
      {entry.content && (
        <div className="post-card__content post-card__repost-comment">
          <p>
            <RichText text={entry.content} />
          </p>
        </div>
      )}
      <OwnPostCard postId={original.id} embedded />
    </article>
  );
}

function OwnPostCard({
  postId,
  commentsOpen = false,
  initialComments,
  initialCommentsCursor,
  canModerate = false,
  menuExtra,
  badge,
  hideGroup = false,
  embedded = false,
}: PostCardProps) {
  const post = useAtomValue(postAtom(postId));
  const me = useAtomValue(currentUserAtom);
  const pending = useAtomValue(likePendingAtom).has(postId);
  const toggleLike = useSetAtom(toggleLikeAtom);
  const deletePost = useSetAtom(deletePostAtom);
  const navigate = useSetAtom(navigateAtom);
  const toast = useSetAtom(showToastAtom);
  const [showComments, setShowComments] = useState(commentsOpen);
  const [expanded, setExpanded] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [blocking, setBlocking] = useState(false);
  const [reposting, setReposting] = useState(false);
  const toggleSave = useSetAtom(toggleSaveAtom);
  const undoRepost = useSetAtom(unrepostAtom);
  const blockAuthor = useSetAtom(blockAuthorAtom);
  const muteAuthor = useSetAtom(muteAuthorAtom);
  const ref = useRef<HTMLElement>(null);
  useWatchPost(ref, postId, post !== undefined);

  if (!post) return null;
  const { author } = post;
  const group = hideGroup ? null : post.group;
  // docs/product.md §6: only the author may delete (the server checks too).
  const isAuthor = !!me && author.id === me.id;
  const long = post.content.length > CLAMP_CHARS && !expanded;
  const text = long ? `${post.content.slice(0, CLAMP_CHARS).trimEnd()}…` : post.content;
  const openProfile = () => navigate({ page: 'profile', userId: author.id });

  const onCopyLink = async () => {
    const ok = await copyText(postLink(post.id));
    if (ok) toast({ message: MSG_LINK_COPIED, tone: 'success', ms: 2000 });
  };

  const onDelete = async () => {
    setDeleting(true);
    try {
      await deletePost(post.id);
    } catch (err) {
      // docs/product.md §8.5: delete failures are silent in the screen.
      console.error('Delete failed', err);
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  // Issue 27: only public posts (outside groups) are reposted, never one's own.
  const canRepost = !!me && !isAuthor && !post.group;
  const onRepost = async () => {
    if (!post.reposted) {
      setReposting(true);
      return;
    }
    try {
      await undoRepost({ postId: post.id, meId: me?.id ?? '' });
      toast({ message: 'Repost removed', tone: 'success', ms: 2000 });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not undo the repost. Please try again.', tone: 'error' });
    }
  };

  const onBlock = async () => {
    setBlocking(true);
    try {
      await blockAuthor(author.id);
      toast({ message: `${author.name} is blocked`, tone: 'success' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not block. Please try again.', tone: 'error' });
      setBlocking(false);
      setConfirmBlock(false);
    }
  };

  const onMute = async () => {
    try {
      await muteAuthor(author.id);
      toast({ message: `You won't see ${author.name}'s posts in your feed`, tone: 'success' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not mute. Please try again.', tone: 'error' });
    }
  };

  return (
    <article
      ref={ref}
      className={embedded ? 'post-card post-card--embedded' : 'card post-card'}
      aria-labelledby={`post-${post.id}-author`}
      data-post-id={post.id}
    >
      {badge && <p className="post-card__badge">{badge}</p>}
      <header className="post-card__header">
        <button type="button" className="post-card__avatar" onClick={openProfile} aria-label={`View ${author.name}'s profile`}>
          <Avatar name={author.name} url={author.avatar.thumbUrl || author.avatar.url} variants={author.avatar.variants} />
        </button>
        <div className="post-card__meta">
          <span className="post-card__byline">
            <button type="button" id={`post-${post.id}-author`} className="post-card__author" onClick={openProfile}>
              {author.name}
            </button>
            {group && (
              <>
                <span className="post-card__in" aria-hidden="true">
                  {' ▸ '}
                </span>
                <a
                  className="post-card__group"
                  href={`/g/${encodeURIComponent(group.handle)}`}
                  onClick={(e) => {
                    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                    e.preventDefault();
                    navigate({ page: 'group', handle: group.handle });
                  }}
                >
                  <span className="visually-hidden">in the group </span>
                  {group.name}
                </a>
              </>
            )}
          </span>
          <span className="post-card__sub">
            {userSubtitle(author)}
            {post.createdAt && (
              <>
                {' · '}
                <button type="button" className="post-card__time" onClick={() => navigate({ page: 'post', postId: post.id })}>
                  <time dateTime={post.createdAt} title={fullDate(post.createdAt)}>
                    {relativeTime(post.createdAt)}
                  </time>
                </button>
              </>
            )}
            {post.editedAt && (
              <>
                {' · '}
                <span className="post-card__edited" title={`Edited ${fullDate(post.editedAt)}`}>
                  edited
                </span>
              </>
            )}
          </span>
        </div>
        <PostMenu
          canDelete={isAuthor || canModerate}
          extra={menuExtra}
          onCopyLink={() => void onCopyLink()}
          onDelete={() => setConfirmDelete(true)}
          onReport={isAuthor ? undefined : () => setReporting(true)}
          onMute={isAuthor ? undefined : () => void onMute()}
          onBlock={isAuthor ? undefined : () => setConfirmBlock(true)}
          onEdit={isAuthor ? () => setEditing(true) : undefined}
        />
      </header>

      {post.content && (
        <div className="post-card__content">
          <p>
            <RichText text={text} mentions={post.mentions} />
          </p>
          {long && (
            <button type="button" className="link-button" onClick={() => setExpanded(true)}>
              See more
            </button>
          )}
        </div>
      )}

      <PostImages images={post.images} authorName={author.name} />

      <div className="post-card__stats">
        <span className="post-card__likes">
          {post.likesCount > 0 && (
            <span className="post-card__like-dot" aria-hidden="true">
              <HeartIcon size={12} filled />
            </span>
          )}
          <span>
            <span data-testid="likes-count">{post.likesCount}</span> {post.likesCount === 1 ? 'like' : 'likes'}
          </span>
        </span>
        <span className="post-card__counts">
          {post.repostsCount > 0 && (
            <span className="post-card__reposts-count">
              <span data-testid="reposts-count">{post.repostsCount}</span> {post.repostsCount === 1 ? 'repost' : 'reposts'}
            </span>
          )}
          <button type="button" className="link-button post-card__comments-count" onClick={() => setShowComments((v) => !v)}>
            <span data-testid="comments-count">{post.commentsCount}</span> {post.commentsCount === 1 ? 'comment' : 'comments'}
          </button>
        </span>
      </div>

      <div className="post-card__actions">
        <button
          type="button"
          className={`post-action${post.isLiked ? ' is-liked' : ''}`}
          aria-pressed={post.isLiked}
          aria-busy={pending}
          onClick={() => void toggleLike(post.id)}
        >
          <HeartIcon size={18} filled={post.isLiked} />
          <span>{post.isLiked ? 'Liked' : 'Like'}</span>
        </button>
        <button type="button" className="post-action" aria-expanded={showComments} onClick={() => setShowComments((v) => !v)}>
          <CommentIcon size={18} />
          <span>Comment</span>
        </button>
        {canRepost && (
          <button type="button" className={`post-action${post.reposted ? ' is-reposted' : ''}`} aria-pressed={post.reposted} onClick={() => void onRepost()}>
            <RepostIcon size={18} />
            <span>{post.reposted ? 'Reposted' : 'Repost'}</span>
          </button>
        )}
        <ShareButton post={post} />
        <button type="button" className={`post-action${post.saved ? ' is-saved' : ''}`} aria-pressed={post.saved} onClick={() => void toggleSave(post.id)}>
          <BookmarkIcon size={18} filled={post.saved} />
          <span>{post.saved ? 'Saved' : 'Save'}</span>
        </button>
      </div>

      {showComments && (
        <ChunkBoundary className="chunk-error--inline">
          <Suspense fallback={<Loading className="post-card__comments-loading" label="Loading comments…" />}>
            <LazyComments.Component postId={post.id} initial={initialComments} initialCursor={initialCommentsCursor} />
          </Suspense>
        </ChunkBoundary>
      )}

      {!isAuthor && reporting && (
        <ChunkBoundary className="chunk-error--inline" onDismiss={() => setReporting(false)}>
          <Suspense fallback={null}>
            <LazyReportDialog.Component open itemType="post" itemId={post.id} onClose={() => setReporting(false)} />
          </Suspense>
        </ChunkBoundary>
      )}
      {!isAuthor && (
        <ConfirmDialog
          open={confirmBlock}
          title={`Block ${author.name}?`}
          body="You will stop seeing each other's posts, comments and profiles, and your friendship will end. They are not told."
          confirmLabel="Block"
          busy={blocking}
          onConfirm={() => void onBlock()}
          onClose={() => setConfirmBlock(false)}
        />
      )}
      {reposting && (
        <ChunkBoundary className="chunk-error--inline" onDismiss={() => setReposting(false)}>
          <Suspense fallback={null}>
            <LazyRepostDialog.Component postId={post.id} open onClose={() => setReposting(false)} />
          </Suspense>
        </ChunkBoundary>
      )}
      {editing && (
        <ChunkBoundary className="chunk-error--inline" onDismiss={() => setEditing(false)}>
          <Suspense fallback={null}>
            <LazyEditPostDialog.Component post={post} open onClose={() => setEditing(false)} />
          </Suspense>
        </ChunkBoundary>
      )}

      <Modal open={confirmDelete} onClose={() => setConfirmDelete(false)} closable={!deleting} title="Delete post?" size="sm">
        <p className="muted">This removes the post, its likes and its comments for everyone. It can't be undone.</p>
        <div className="post-card__confirm">
          <button type="button" className="button button--secondary" onClick={() => setConfirmDelete(false)} disabled={deleting}>
            Cancel
          </button>
          <button type="button" className="button button--danger" onClick={() => void onDelete()} disabled={deleting} data-autofocus>
            {deleting ? 'Deleting…' : 'Delete'}
          </button>
        </div>
      </Modal>
    </article>
  );
}

