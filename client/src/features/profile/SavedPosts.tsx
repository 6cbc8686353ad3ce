import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { apiGet, isApiError } from '../../api/http';
import { FEED_PAGE_SIZE } from '../../constants';
import { PostSkeleton } from '../../ui/Skeleton';
import { PostCard } from '../posts/PostCard';
import { postsPage, query } from '../posts/postsApi';
import { upsertPostsAtom } from '../posts/postsAtoms';

/** GET /me/bookmarks: the viewer's saved posts, newest saved first. */
async function fetchSaved(cursor: string | null) {
  return postsPage(await apiGet<unknown>(`/me/bookmarks${query({ limit: FEED_PAGE_SIZE, cursor })}`));
}

/**
 * Issue 27: the viewer's saved posts, newest saved first, on their own
 * profile's Collections tab only (the server answers nobody else's). A post
 * unsaved here stays until the list is read again, as on Instagram, so a
 * slip can be undone with the same button.
 */
export function SavedPosts() {
  const upsert = useSetAtom(upsertPostsAtom);
  const [ids, setIds] = useState<string[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');

  const load = useCallback(
    async (after: string | null) => {
      setStatus('loading');
      try {
        const page = await fetchSaved(after);
        upsert(page.items);
        setIds((cur) => {
          const seen = new Set(after ? cur : []);
          const next = after ? [...cur] : [];
          for (const p of page.items) if (!seen.has(p.id)) next.push(p.id);
          return next;
        });
        setCursor(page.nextCursor);
        setStatus('ready');
      } catch (err) {
        setError(isApiError(err) ? err.message : "Couldn't load your saved posts.");
        setStatus('error');
      }
    },
    [upsert],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <section className="card profile-section profile-saved" aria-labelledby="profile-saved-title">
      <div className="profile-section__head">
        <h2 id="profile-saved-title" className="profile-section__title">
          Saved
        </h2>
      </div>
      <p className="muted profile-saved__note">Only you can see what you save.</p>
      {status === 'error' && (
        <div className="empty-state" role="alert">
          <p className="empty-state__text">{error}</p>
          <button type="button" className="button button--secondary" onClick={() => void load(ids.length > 0 ? cursor : null)}>
            Try again
          </button>
        </div>
      )}
      {status === 'ready' && ids.length === 0 && (
        <div className="empty-state">
          <p className="empty-state__title">Nothing saved yet</p>
          <p className="empty-state__text">Save posts to find them here later.</p>
        </div>
      )}
      <div className="profile-saved__list">
        {ids.map((id) => (
          <PostCard key={id} postId={id} />
        ))}
      </div>
      {status === 'loading' && <PostSkeleton />}
      {status === 'ready' && cursor && (
        <button type="button" className="button button--secondary button--block" onClick={() => void load(cursor)}>
          Load more saved posts
        </button>
      )}
    </section>
  );
}
