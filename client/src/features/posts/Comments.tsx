import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { fullDate, relativeTime } from '../../lib/time';
import { Avatar } from '../../ui/Avatar';
import { RichText } from '../search/RichText';
import { TrashIcon } from '../../ui/icons';
import { navigateAtom } from '../../lib/navigation';
import { currentUserAtom } from '../auth/authAtoms';
import type { Comment } from './model';
import { MentionTextarea } from '../mentions/MentionTextarea';
import { ReportDialog } from '../safety/ReportDialog';
import { addComment, deleteComment, fetchComments } from './postsApi';
import { applyCommentsCountAtom, bumpCommentsCountAtom, postAtom } from './postsAtoms';

export const MAX_COMMENT_LENGTH = 1000;

function byTime(a: Comment, b: Comment): number {
  return (Date.parse(a.createdAt) || 0) - (Date.parse(b.createdAt) || 0);
}

function merge(list: Comment[], more: Comment[]): Comment[] {
  const seen = new Set(list.map((c) => c.id));
  return [...list, ...more.filter((c) => !seen.has(c.id))].sort(byTime);
}

/** A post's comments: the list (oldest first), add, delete own. */
export function Comments({ postId, initial, initialCursor = null }: { postId: string; initial?: Comment[]; initialCursor?: string | null }) {
  const post = useAtomValue(postAtom(postId));
  const me = useAtomValue(currentUserAtom);
  const navigate = useSetAtom(navigateAtom);
  const bump = useSetAtom(bumpCommentsCountAtom);
  const setCount = useSetAtom(applyCommentsCountAtom);
  const [items, setItems] = useState<Comment[]>(() => (initial ? [...initial].sort(byTime) : []));
  const [reporting, setReporting] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(initialCursor);
  const [loading, setLoading] = useState(!initial);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [posting, setPosting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const knownCount = useRef<number | null>(initial ? (post?.commentsCount ?? initial.length) : null);
  const inputId = useId();

  const loadFirst = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    try {
      const page = await fetchComments(postId, null);
      setItems([...page.items].sort(byTime));
      setCursor(page.nextCursor);
    } catch (err) {
      setLoadError(err instanceof Error ? err.message : 'Could not load comments.');
    } finally {
      setLoading(false);
    }
  }, [postId]);

  useEffect(() => {
    if (!initial) void loadFirst();
  }, [initial, loadFirst]);

  // Someone else commented or deleted (live post:comments): reload the list.
  const count = post?.commentsCount;
  useEffect(() => {
    if (count === undefined) return;
    if (knownCount.current === null || loading) {
      knownCount.current = count;
      return undefined;
    }
    if (count === knownCount.current) return undefined;
    knownCount.current = count;
    const t = setTimeout(() => void loadFirst(), 300);
    return () => clearTimeout(t);
  }, [count, loading, loadFirst]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoading(true);
    try {
      const page = await fetchComments(postId, cursor);
      setItems((cur) => merge(cur, page.items));
      setCursor(page.nextCursor);
    } catch (err) {
      setLoadError(err instanceof Error ? err.message : 'Could not load comments.');
    } finally {
      setLoading(false);
    }
  };

  const inputRef = useRef<HTMLTextAreaElement>(null);
  const onSubmit = async (e?: FormEvent<HTMLFormElement>) => {
    e?.preventDefault();
    const content = draft.trim();
    if (!content || posting) return;
    setPosting(true);
    setError(null);
    try {
      const { comment, commentsCount, countsVersion } = await addComment(postId, content);
      setItems((cur) => merge(cur, [comment]));
      setDraft('');
      const next = commentsCount ?? (post?.commentsCount ?? 0) + 1;
      knownCount.current = next;
      if (commentsCount !== undefined) setCount({ postId, commentsCount, countsVersion });
      else bump({ postId, delta: 1 });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not add the comment.');
    } finally {
      setPosting(false);
      // Back to the field, whether Enter or the Send button sent it: the
      // next comment is typed at once (focus never drops to the page).
      inputRef.current?.focus();
    }
  };

  const onDelete = async (c: Comment) => {
    try {
      const { commentsCount, countsVersion } = await deleteComment(postId, c.id);
      setItems((cur) => cur.filter((x) => x.id !== c.id));
      knownCount.current = commentsCount ?? Math.max(0, (post?.commentsCount ?? 1) - 1);
      if (commentsCount !== undefined) setCount({ postId, commentsCount, countsVersion });
      else bump({ postId, delta: -1 });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not delete the comment.');
    }
  };

  return (
    <div className="comments">
      {loading && items.length === 0 && <p className="muted comments__status">Loading comments…</p>}
      {loadError && (
        <p className="comments__status comments__status--error" role="alert">
          {loadError}
        </p>
      )}
      {!loading && !loadError && items.length === 0 && <p className="muted comments__status">No comments yet. Be the first!</p>}
      {items.length > 0 && (
        <ul className="comments__list">
          {items.map((c) => (
            <li key={c.id} className="comment">
              <button type="button" className="comment__avatar" onClick={() => navigate({ page: 'profile', userId: c.user.id })} aria-label={`View ${c.user.name}'s profile`}>
                <Avatar name={c.user.name} url={c.user.avatar.thumbUrl || c.user.avatar.url} variants={c.user.avatar.variants} size={32} />
              </button>
              <div className="comment__bubble">
                <div className="comment__head">
                  <span className="comment__name">{c.user.name}</span>
                  <time className="comment__time" dateTime={c.createdAt} title={fullDate(c.createdAt)}>
                    {relativeTime(c.createdAt)}
                  </time>
                </div>
                <p className="comment__text">
                  <RichText text={c.content} mentions={c.mentions} />
                </p>
              </div>
              {me && c.user.id === me.id && (
                <button type="button" className="icon-button comment__delete" onClick={() => void onDelete(c)} aria-label="Delete comment">
                  <TrashIcon size={16} />
                </button>
              )}
              {me && c.user.id !== me.id && (
                <button type="button" className="link-button comment__report" onClick={() => setReporting(c.id)} aria-label={`Report ${c.user.name}'s comment`}>
                  Report
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {reporting && <ReportDialog open itemType="comment" itemId={reporting} onClose={() => setReporting(null)} />}
      {/* The server pages oldest first: more means newer. */}
      {cursor && (
        <button type="button" className="link-button comments__more" onClick={() => void loadMore()} disabled={loading}>
          View more comments
        </button>
      )}
      <form className="comments__form" onSubmit={(e) => void onSubmit(e)}>
        {me && <Avatar name={me.name} url={me.avatar.thumbUrl || me.avatar.url} variants={me.avatar.variants} size={32} />}
        <label htmlFor={inputId} className="visually-hidden">
          Write a comment
        </label>
        {/* Enter sends; Shift+Enter starts a new line (issue 16 #2); @ and a letter offer people to mention (issue 27). */}
        <MentionTextarea
          ref={inputRef}
          id={inputId}
          fieldClassName="comments__field"
          className="comments__input"
          rows={Math.min(6, draft.split('\n').length)}
          placeholder="Write a comment…"
          maxLength={MAX_COMMENT_LENGTH}
          value={draft}
          onValueChange={setDraft}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void onSubmit();
            }
          }}
          // Read-only, not disabled, while it sends: a disabled field loses focus.
          readOnly={posting}
          aria-busy={posting}
        />
        <button type="submit" className="button button--primary button--sm" disabled={posting || draft.trim() === ''}>
          {posting ? 'Sending…' : 'Send'}
        </button>
      </form>
      {error && (
        <p className="comments__status comments__status--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
