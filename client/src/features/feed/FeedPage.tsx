import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { productNameAtom } from '../../app/config';
import { useRetryWhenOnline } from '../../app/connectivity';
import { navigateAtom, presetFriendsTab } from '../../app/navigation';
import { FEED_SKELETON_CARDS } from '../../constants';
import { PullToRefresh } from '../../ui/PullToRefresh';
import { PostSkeleton } from '../../ui/Skeleton';
import { currentUserAtom } from '../auth/authAtoms';
import { Composer } from '../posts/Composer';
import { CreatePostDialog } from '../posts/CreatePostDialog';
import { PostCard } from '../posts/PostCard';
import {
  feedHasMoreAtom,
  feedLoadingMoreAtom,
  feedPostIdsAtom,
  feedStatusAtom,
  loadFeedAtom,
  loadMoreFeedAtom,
} from './feedAtoms';
import { PeopleYouMayKnow } from './PeopleYouMayKnow';
import { QuickLinks } from './QuickLinks';
import './Feed.css';

/** Spec §2.12 empty state. */
function EmptyFeed({ onCreate }: { onCreate: () => void }) {
  const productName = useAtomValue(productNameAtom);
  const navigate = useSetAtom(navigateAtom);
  return (
    <div className="card empty-state feed__empty">
      <p className="empty-state__title">Welcome to {productName}!</p>
      <p className="empty-state__text">Start by creating your first post or connecting with friends.</p>
      <div className="empty-state__actions">
        <button type="button" className="button button--primary" onClick={onCreate}>
          Create Post
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            presetFriendsTab('suggestions');
            navigate({ page: 'friends' });
          }}
        >
          Find Friends
        </button>
      </div>
    </div>
  );
}

/** Spec §2.12 home feed: Quick Links, composer and posts, People You May Know. */
export function FeedPage() {
  const me = useAtomValue(currentUserAtom);
  const ids = useAtomValue(feedPostIdsAtom);
  const status = useAtomValue(feedStatusAtom);
  const hasMore = useAtomValue(feedHasMoreAtom);
  const loadingMore = useAtomValue(feedLoadingMoreAtom);
  const load = useSetAtom(loadFeedAtom);
  const loadMore = useSetAtom(loadMoreFeedAtom);
  const [dialogOpen, setDialogOpen] = useState(false);

  useEffect(() => {
    void load();
  }, [load]);
  // Opened offline (the service worker's shell): load when the network is back.
  useRetryWhenOnline(() => {
    if (status === 'error') void load();
  });

  // Spec §2.12: nothing renders with no signed-in user.
  if (!me) return null;
  const openDialog = () => setDialogOpen(true);

  return (
    <div className="feed-layout">
      <aside className="feed-layout__left" aria-label="Quick links">
        <QuickLinks />
      </aside>

      <section className="feed-layout__center" aria-labelledby="feed-title">
        <h1 id="feed-title" className="visually-hidden">
          Feed
        </h1>
        <Composer onOpen={openDialog} />
        <PullToRefresh onRefresh={() => load()} onLoadMore={() => void loadMore()} hasMore={hasMore} loadingMore={loadingMore} className="feed">
          {(status === 'idle' || status === 'loading') && ids.length === 0 && (
            <div className="feed__list" aria-busy="true" aria-label="Loading posts">
              {Array.from({ length: FEED_SKELETON_CARDS }, (_, i) => (
                <PostSkeleton key={i} />
              ))}
            </div>
          )}
          {status === 'error' && ids.length === 0 && (
            <div className="card empty-state">
              <p className="empty-state__title">Couldn't load posts</p>
              <button type="button" className="button button--secondary" onClick={() => void load()}>
                Try again
              </button>
            </div>
          )}
          {status === 'ready' && ids.length === 0 && <EmptyFeed onCreate={openDialog} />}
          {ids.length > 0 && (
            <div className="feed__list">
              {ids.map((id) => (
                <PostCard key={id} postId={id} />
              ))}
            </div>
          )}
          {loadingMore && <PostSkeleton />}
          {hasMore && !loadingMore && ids.length > 0 && (
            <button type="button" className="button button--secondary button--block feed__more" onClick={() => void loadMore()}>
              Load more posts
            </button>
          )}
          {!hasMore && status === 'ready' && ids.length > 0 && <p className="feed__end">You're all caught up.</p>}
        </PullToRefresh>
      </section>

      <aside className="feed-layout__right" aria-label="Suggestions">
        <PeopleYouMayKnow />
      </aside>

      <CreatePostDialog open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </div>
  );
}
