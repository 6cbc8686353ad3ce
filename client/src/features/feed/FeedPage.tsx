import { useAtomValue, useSetAtom } from 'jotai';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType, type RefObject } from 'react';
import { productNameAtom } from '../../api/config';
import { useRecover } from '../../ui/connectivity';
import { afterPaint } from '../../lib/afterPaint';
import { OfflineNotice } from '../../ui/OfflineNotice';
import { navigateAtom, presetFriendsTab } from '../../lib/navigation';
import { FEED_SKELETON_CARDS, MOBILE_BREAKPOINT_PX } from '../../constants';
import { ChunkBoundary } from '../../ui/ChunkBoundary';
import { PullToRefresh } from '../../ui/PullToRefresh';
import { PostSkeleton } from '../../ui/Skeleton';
import { currentUserAtom } from '../auth/authAtoms';
import { Composer } from '../posts/Composer';
import { LazyCreatePostDialog } from '../posts/lazyParts';
import { PostCard } from '../posts/PostCard';
import {
  feedHasMoreAtom,
  feedLoadingMoreAtom,
  feedPostIdsAtom,
  feedStatusAtom,
  fetchNewPostsAtom,
  insertNewPostsAtom,
  feedOfflineSavedAtAtom,
  loadFeedAtom,
  loadFeedOnMountAtom,
  loadMoreFeedAtom,
  newPostIdsAtom,
  newPostsLabel,
} from './feedAtoms';
import type { InstallCardProps } from './InstallCard';
import { useInstallNudge } from './useInstallNudge';
import { PeopleYouMayKnow } from './PeopleYouMayKnow';
import { QuickLinks } from './QuickLinks';
import './Feed.css';

/** The install card, loaded only when the feed offers install (a card that fails to load is left out). */
const InstallCard = lazy<ComponentType<InstallCardProps>>(() =>
  import('./InstallCard').then(
    (m) => ({ default: m.InstallCard }),
    () => ({ default: () => null }),
  ),
);

/**
 * "Trending on campus" (issue 27 item 2), in a chunk of its own: loaded after
 * the first paint and only where the right column shows (the search
 * overlay shows trending on small screens). A card that fails to load is
 * left out.
 */
const TrendingCard = lazy<ComponentType>(() =>
  import('../tags/TrendingList').then(
    (m) => ({ default: m.TrendingCard }),
    () => ({ default: () => null }),
  ),
);

function useTrendingCard(): boolean {
  const [show, setShow] = useState(false);
  useEffect(
    () =>
      afterPaint(() =>
        setShow(typeof window.matchMedia !== 'function' || window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`).matches),
      ),
    [],
  );
  return show;
}

/** docs/product.md §2.12 empty state. */
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

/** Where a post card is on screen: its id and its top edge in viewport pixels. */
export interface CardAnchor {
  id: string;
  top: number;
}

/**
 * The first post card the reader can see (the first whose bottom is below
 * `fromY`, the sticky top bar's bottom), to keep still while posts are
 * inserted above it.
 */
export function firstVisibleCard(list: ParentNode | null, fromY = 0): CardAnchor | null {
  if (!list) return null;
  for (const el of Array.from(list.querySelectorAll<HTMLElement>('[data-post-id]'))) {
    const r = el.getBoundingClientRect();
    if (r.bottom > fromY) return { id: el.dataset.postId ?? '', top: r.top };
  }
  return null;
}

/** The bottom of the sticky top bar (0 when it is not there). */
function topBarBottom(): number {
  const bar = document.querySelector('.top-bar');
  return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
}

/**
 * Issue 16: "N new posts" at the top of the feed, as Mastodon and Bluesky
 * have it. New posts by friends are announced live (`post:new`) and fetched
 * only when the pill is pressed; they go in above without moving what the
 * reader is looking at: the first visible card's offset is measured before
 * the insert and the page scrolled by its change after. The count is
 * announced politely to screen readers.
 */
function NewPostsPill({ listRef }: { listRef: RefObject<HTMLDivElement | null> }) {
  const ids = useAtomValue(newPostIdsAtom);
  const fetchNew = useSetAtom(fetchNewPostsAtom);
  const insert = useSetAtom(insertNewPostsAtom);
  const [busy, setBusy] = useState(false);
  const anchor = useRef<CardAnchor | null>(null);
  const feedIds = useAtomValue(feedPostIdsAtom);

  // After the insert has rendered, before paint: scroll by however far the
  // anchored card moved (the browser's own scroll anchoring may have done
  // part of it already; this corrects the rest, to the pixel).
  useLayoutEffect(() => {
    const a = anchor.current;
    if (!a) return;
    anchor.current = null;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-post-id="${CSS.escape(a.id)}"]`);
    if (!el) return;
    const delta = el.getBoundingClientRect().top - a.top;
    if (Math.abs(delta) >= 0.5) window.scrollBy(0, delta);
  }, [feedIds, listRef]);

  const onShow = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const posts = await fetchNew();
      // At the very top there is nothing to hold still: the new posts show.
      anchor.current = window.scrollY > 0 ? firstVisibleCard(listRef.current, topBarBottom()) : null;
      insert(posts);
    } finally {
      setBusy(false);
    }
  };

  const n = ids.length;
  // Always rendered and 0 px tall: the pill floats over the feed, so its
  // coming and going moves nothing.
  return (
    <div className="feed__new-posts">
      <div className="visually-hidden" role="status" aria-live="polite">
        {n > 0 ? newPostsLabel(n) : ''}
      </div>
      {n > 0 && (
        <button type="button" className="new-posts-pill" onClick={() => void onShow()} aria-busy={busy}>
          <span aria-hidden="true">↑</span> {newPostsLabel(n)}
        </button>
      )}
    </div>
  );
}

/** docs/product.md §2.12 home feed: Quick Links, composer and posts, People You May Know. */
export function FeedPage() {
  const me = useAtomValue(currentUserAtom);
  const ids = useAtomValue(feedPostIdsAtom);
  const status = useAtomValue(feedStatusAtom);
  const hasMore = useAtomValue(feedHasMoreAtom);
  const loadingMore = useAtomValue(feedLoadingMoreAtom);
  const load = useSetAtom(loadFeedAtom);
  const loadOnMount = useSetAtom(loadFeedOnMountAtom);
  const loadMore = useSetAtom(loadMoreFeedAtom);
  const [dialogOpen, setDialogOpen] = useState(false);
  // The create dialog's chunk loads at the first open (lazyParts.ts).
  const [dialogMounted, setDialogMounted] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void loadOnMount();
  }, [loadOnMount]);
  // Opened offline (the service worker's shell), or no server answered:
  // load again when the network is back, and now and then meanwhile.
  useRecover(status === 'error' || status === 'offline', () => void load());
  const offlineSavedAt = useAtomValue(feedOfflineSavedAtAtom);
  const install = useInstallNudge();
  const trending = useTrendingCard();

  // docs/product.md §2.12: nothing renders with no signed-in user.
  if (!me) return null;
  const openDialog = () => {
    setDialogMounted(true);
    setDialogOpen(true);
  };

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
        {install.show && (
          <Suspense fallback={null}>
            <InstallCard state={install.state} onDismiss={install.dismiss} />
          </Suspense>
        )}
        {/* Mounted at the first open and kept: a closed dialog keeps its draft.
            Here, under the composer, for the alert when its chunk does not
            load (the dialog itself is a portal). Closed from the alert, it is
            unmounted: the next open loads it again. */}
        {dialogMounted && (
          <ChunkBoundary
            className="chunk-error--inline"
            onDismiss={() => {
              setDialogOpen(false);
              setDialogMounted(false);
            }}
          >
            <Suspense fallback={null}>
              <LazyCreatePostDialog.Component open={dialogOpen} onClose={() => setDialogOpen(false)} />
            </Suspense>
          </ChunkBoundary>
        )}
        {status === 'ready' && <NewPostsPill listRef={listRef} />}
        <PullToRefresh onRefresh={() => load()} onLoadMore={() => void loadMore()} hasMore={hasMore} loadingMore={loadingMore} className="feed">
          {(status === 'idle' || status === 'loading') && ids.length === 0 && (
            <div className="feed__list" aria-busy="true" aria-label="Loading posts">
              {Array.from({ length: FEED_SKELETON_CARDS }, (_, i) => (
                <PostSkeleton key={i} />
              ))}
            </div>
          )}
          {status === 'offline' && <OfflineNotice savedAt={offlineSavedAt} what="posts" />}
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
            <div className="feed__list" ref={listRef}>
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
        {trending && (
          <Suspense fallback={null}>
            <TrendingCard />
          </Suspense>
        )}
      </aside>
    </div>
  );
}
