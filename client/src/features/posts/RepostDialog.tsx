import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { apiPost } from '../../api/http';
import { Modal } from '../../ui/Modal';
import { showToastAtom } from '../../ui/toast';
import { repostAnswer } from './postsApi';
import { applyRepostAnswerAtom, postAtom, postCreatedAtom } from './postsAtoms';
import './RepostDialog.css';

export const MSG_REPOSTED = 'Reposted to your feed';
/** The comment's limit: a post's (the server checks it too). */
const MAX_COMMENT = 2000;

/**
 * Reposts a post with an optional comment (a repeat answers the repost
 * there is); the viewer's entry goes to the top of their feed and profile.
 * Rejects with the server's error, which the dialog shows. Here, in the
 * dialog's chunk, out of the feed's first load.
 */
export const repostAtom = atom(null, async (_get, set, e: { postId: string; comment: string }) => {
  const r = repostAnswer(await apiPost<unknown>(`/posts/${encodeURIComponent(e.postId)}/repost`, { comment: e.comment }));
  set(applyRepostAnswerAtom, { ...r, postId: e.postId });
  if (r.entry) set(postCreatedAtom, r.entry);
});

/**
 * Issue 27: repost a post to the viewer's own feed with an optional comment
 * (rich text like a post's). A chunk of its own, loaded at the first click.
 */
export function RepostDialog({ postId, open, onClose }: { postId: string; open: boolean; onClose: () => void }) {
  const post = useAtomValue(postAtom(postId));
  const doRepost = useSetAtom(repostAtom);
  const toast = useSetAtom(showToastAtom);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const countId = useId();
  const tooLong = [...comment.trim()].length > MAX_COMMENT;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || tooLong) return;
    setBusy(true);
    setError(null);
    try {
      await doRepost({ postId, comment: comment.trim() });
      toast({ message: MSG_REPOSTED, tone: 'success', ms: 2000 });
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not repost. Please try again.');
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} closable={!busy} title="Repost" size="sm">
      <form className="repost-dialog" onSubmit={(e) => void onSubmit(e)}>
        {post && (
          <blockquote className="repost-dialog__quote">
            <strong>{post.author.name}</strong>
            {post.content && <span className="repost-dialog__snippet">{post.content.slice(0, 140)}</span>}
          </blockquote>
        )}
        <label htmlFor={fieldId}>Add a comment (optional)</label>
        <textarea
          id={fieldId}
          className="edit-post__text"
          rows={3}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          disabled={busy}
          aria-describedby={countId}
          aria-invalid={tooLong}
          data-autofocus
        />
        <p id={countId} className={`repost-dialog__count${tooLong ? ' is-over' : ''}`}>
          {[...comment.trim()].length}/{MAX_COMMENT}
        </p>
        {error && (
          <p className="edit-post__error" role="alert">
            {error}
          </p>
        )}
        <div className="post-card__confirm">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || tooLong}>
            {busy ? 'Reposting…' : 'Repost'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
