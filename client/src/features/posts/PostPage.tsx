import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { canGoBackInApp, navigateAtom } from '../../lib/navigation';
import { ArrowLeftIcon } from '../../ui/icons';
import { PostSkeleton } from '../../ui/Skeleton';
import type { Comment } from './model';
import { PostCard } from './PostCard';
import { fetchPost, type HiddenMarks } from './postsApi';
import { postAtom, upsertPostsAtom } from './postsAtoms';
import './PostPage.css';

type Status = 'loading' | 'ready' | 'missing' | 'error';

/** What a moderator reads above a post hidden from everyone else. */
export function hiddenNotice(m: HiddenMarks): string {
  const why = [m.removed ? 'removed by a moderator' : '', m.authorSuspended ? 'its author is suspended' : '']
    .filter(Boolean)
    .join(', and ');
  return `Only moderators see this post: ${why}.`;
}

/** The /post/{id} page (docs/product.md §2.1): the post with its comments open. */
export function PostPage({ postId }: { postId: string }) {
  const post = useAtomValue(postAtom(postId));
  const upsert = useSetAtom(upsertPostsAtom);
  const navigate = useSetAtom(navigateAtom);
  const [status, setStatus] = useState<Status>('loading');
  const [comments, setComments] = useState<Comment[] | undefined>(undefined);
  const [commentsCursor, setCommentsCursor] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [marks, setMarks] = useState<HiddenMarks | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchPost(postId, controller.signal)
      .then(({ post: p, comments: c, commentsCursor: cur, moderation }) => {
        upsert([p]);
        setComments(c);
        setCommentsCursor(cur);
        setMarks(moderation);
        setStatus('ready');
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        // 403: a post of a closed or secret group to a non-member (issue 18) reads as missing.
        if (isApiError(err) && (err.status === 404 || err.status === 400 || err.status === 403)) setStatus('missing');
        else {
          setError(err instanceof Error ? err.message : '');
          setStatus('error');
        }
      });
    return () => controller.abort();
  }, [postId, upsert]);

  const back = () => {
    // Back through history when that stays in the app (not for a shared link opened fresh).
    if (canGoBackInApp()) window.history.back();
    else navigate({ page: 'feed' });
  };

  return (
    <div className="post-page">
      <h1 className="visually-hidden">Post</h1>
      <button type="button" className="button button--ghost button--sm post-page__back" onClick={back}>
        <ArrowLeftIcon size={18} /> Back
      </button>
      {status === 'loading' && <PostSkeleton />}
      {status === 'ready' && post && marks && (marks.removed || marks.authorSuspended) && (
        <p className="alert alert--info" role="status">
          {hiddenNotice(marks)}
        </p>
      )}
      {status === 'ready' && post && <PostCard postId={postId} commentsOpen initialComments={comments} initialCommentsCursor={commentsCursor} />}
      {((status === 'ready' && !post) || status === 'missing') && (
        <div className="card empty-state">
          <p className="empty-state__title">{status === 'ready' ? 'This post was deleted' : 'Post not found'}</p>
          <p className="empty-state__text">It may have been removed by its author.</p>
          <button type="button" className="button button--primary" onClick={() => navigate({ page: 'feed' })}>
            Go to feed
          </button>
        </div>
      )}
      {status === 'error' && (
        <div className="card empty-state" role="alert">
          <p className="empty-state__title">Couldn't load this post</p>
          <p className="empty-state__text">{error}</p>
        </div>
      )}
    </div>
  );
}
