import { useSetAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { srcOf } from '../../lib/srcset';
import { Modal } from '../../ui/Modal';
import { MentionTextarea } from '../mentions/MentionTextarea';
import { AltField } from './AltField';
import { showToastAtom } from '../../ui/toast';
import type { Post } from './model';
import { editPost } from './postsApi';
import { upsertPostsAtom } from './postsAtoms';

export const MSG_POST_UPDATED = 'Post updated';

/**
 * Edit own post (issue 16 #2): the text and the images' descriptions (alt
 * text); the images themselves stay. The server's answer replaces the post
 * everywhere it shows, with its "edited" marker.
 */
export function EditPostDialog({ post, open, onClose }: { post: Post; open: boolean; onClose: () => void }) {
  const upsert = useSetAtom(upsertPostsAtom);
  const toast = useSetAtom(showToastAtom);
  const [draft, setDraft] = useState(post.content);
  const [alts, setAlts] = useState(() => post.images.map((i) => i.alt));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const blank = draft.trim() === '' && post.images.length === 0;
  const altsChanged = alts.some((a, i) => a.trim() !== (post.images[i]?.alt ?? ''));
  const unchanged = draft.trim() === post.content.trim() && !altsChanged;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (blank || unchanged || saving) return;
    setSaving(true);
    setError(null);
    try {
      const updated = await editPost(post.id, draft, post.images.length > 0 ? alts : undefined);
      upsert([{ ...updated, isLiked: updated.isLiked || post.isLiked }]);
      toast({ message: MSG_POST_UPDATED, tone: 'success', ms: 2000 });
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not save the post.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} closable={!saving} title="Edit post">
      <form className="edit-post" onSubmit={(e) => void onSubmit(e)}>
        <label htmlFor={fieldId} className="visually-hidden">
          Post text
        </label>
        <MentionTextarea
          id={fieldId}
          className="edit-post__text"
          rows={5}
          value={draft}
          onValueChange={setDraft}
          disabled={saving}
          data-autofocus
        />
        {post.images.length > 0 && (
          <ul className="edit-post__images">
            {post.images.map((img, n) => (
              <li key={`${img.url}-${n}`} className="edit-post__image">
                <img className="edit-post__thumb" src={srcOf(img, 320)} alt="" />
                <AltField
                  id={`${fieldId}-alt-${n}`}
                  n={n}
                  value={alts[n] ?? ''}
                  onChange={(v) => setAlts((cur) => cur.map((a, i) => (i === n ? v : a)))}
                  disabled={saving}
                />
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p className="edit-post__error" role="alert">
            {error}
          </p>
        )}
        <div className="post-card__confirm">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={saving || blank || unchanged}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
