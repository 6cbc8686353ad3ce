// A tag's page, /tags/{tag} (issue 27 item 2): the posts with the tag,
// newest or top first, as the feed lists them. Counts move live (each card
// watches its post). New posts are announced by a "N new posts" pill, as on
// the feed: the newest page is read again every TAG_POLL_MS while the page
// is in view (and when it comes back into view), and the posts found are
// shown when the pill is pressed. Posts the reader writes with the tag show
// at the top at once.

import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { isNoAnswer } from '../../api/http';
import { FEED_PAGE_SIZE } from '../../constants';
import { tokenize } from '../../lib/richText';
import { useRecover } from '../../ui/connectivity';
import { OfflineNotice } from '../../ui/OfflineNotice';
import { PostSkeleton, Skeleton } from '../../ui/Skeleton';
import type { Post } from '../posts/model';
import { PostCard } from '../posts/PostCard';
import { createdPostIdsAtom, existingIds, postsByIdReadAtom, upsertPostsAtom } from '../posts/postsAtoms';
import { fetchTag, fetchTagPosts, type TagInfo, type TagSort } from './tagsApi';
import './Tags.css';

/** How often the newest page is read again for the pill while the page is in view. */
export const TAG_POLL_MS = 30_000;

const SORTS: { id: TagSort; label: string }[] = [
  { id: 'new', label: 'Newest' },
  { id: 'top', label: 'Top' },
];

type Status = 'loading' | 'ready' | 'error' | 'offline';

interface List {
  ids: string[];
  cursor: string | null;
  status: Status;
  loadingMore: boolean;
}

const EMPTY: List = { ids: [], cursor: null, status: 'loading', loadingMore: false };

/** Whether text has the tag (normalized), as its links name it. */
export function hasTag(text: string, tag: string): boolean {
  return tokenize(text).some((t) => t.kind === 'tag' && t.tag === tag);
}

/** The pill's text: "1 new post", "3 new posts". */
export function newPostsText(n: number): string {
  return `${n} new ${n === 1 ? 'post' : 'posts'}`;
}

/**
 * The posts of a fresh newest page that are newer than what is shown: those
 * before the first one already shown (all of the page when none is).
 */
export function newerThanShown(fresh: readonly string[], shown: readonly string[]): string[] {
  const have = new Set(shown);
  const at = fresh.findIndex((id) => have.has(id));
  return (at < 0 ? fresh : fresh.slice(0, at)).filter((id) => !have.has(id));
}

export function TagPage({ tag }: { tag: string }) {
  const [sort, setSort] = useState<TagSort>('new');
  const [info, setInfo] = useState<TagInfo | null>(null);
  const [lists, setLists] = useState<Record<TagSort, List>>({ new: EMPTY, top: EMPTY });
  // Posts found newer than the newest shown, waiting behind the pill.
  const [waiting, setWaiting] = useState<Post[]>([]);
  const upsert = useSetAtom(upsertPostsAtom);
  const byId = useAtomValue(postsByIdReadAtom);
  const created = useAtomValue(createdPostIdsAtom);
  const tabs = useRef<Record<TagSort, HTMLButtonElement | null>>({ new: null, top: null });
  const generation = useRef({ new: 0, top: 0 });

  const patch = useCallback((s: TagSort, p: Partial<List>) => setLists((l) => ({ ...l, [s]: { ...l[s], ...p } })), []);

  const loadInfo = useCallback(() => {
    fetchTag(tag).then(setInfo, (err: unknown) => console.warn('Tag load failed', err));
  }, [tag]);

  const load = useCallback(
    async (s: TagSort) => {
      const gen = ++generation.current[s];
      patch(s, { status: 'loading' });
      try {
        const page = await fetchTagPosts(tag, s, null, FEED_PAGE_SIZE);
        if (generation.current[s] !== gen) return;
        upsert(page.items);
        patch(s, { ids: page.items.map((p) => p.id), cursor: page.nextCursor, status: 'ready' });
        if (s === 'new') setWaiting([]);
      } catch (err) {
        if (generation.current[s] !== gen) return;
        console.error('Tag posts failed', err);
        patch(s, { status: isNoAnswer(err) ? 'offline' : 'error' });
      }
    },
    [tag, patch, upsert],
  );

  const loadMore = async (s: TagSort) => {
    const l = lists[s];
    if (l.cursor === null || l.loadingMore || l.status !== 'ready') return;
    const gen = generation.current[s];
    patch(s, { loadingMore: true });
    try {
      const page = await fetchTagPosts(tag, s, l.cursor, FEED_PAGE_SIZE);
      if (generation.current[s] !== gen) return;
      upsert(page.items);
      setLists((cur) => {
        const have = new Set(cur[s].ids);
        const more = page.items.map((p) => p.id).filter((id) => !have.has(id));
        return { ...cur, [s]: { ...cur[s], ids: [...cur[s].ids, ...more], cursor: page.nextCursor, loadingMore: false } };
      });
    } catch (err) {
      console.error('Loading more tag posts failed', err);
      patch(s, { loadingMore: false });
    }
  };

  useEffect(() => {
    loadInfo();
    void load('new');
  }, [loadInfo, load]);

  const list = lists[sort];
  // Top is read the first time it is opened.
  const topRequested = useRef(false);
  useEffect(() => {
    if (sort !== 'top' || topRequested.current) return;
    topRequested.current = true;
    void load('top');
  }, [sort, load]);
  useRecover(list.status === 'error' || list.status === 'offline', () => {
    loadInfo();
    void load(sort);
  });

  // The pill: the newest page read again now and then while in view.
  const shownNew = lists.new.ids;
  const newReady = lists.new.status === 'ready';
  useEffect(() => {
    if (!newReady) return;
    let cancelled = false;
    const poll = () => {
      if (document.visibilityState === 'hidden') return;
      fetchTagPosts(tag, 'new', null, FEED_PAGE_SIZE).then(
        (page) => {
          if (cancelled) return;
          const ids = newerThanShown(
            page.items.map((p) => p.id),
            shownNew,
          );
          setWaiting(page.items.filter((p) => ids.includes(p.id)));
        },
        () => {}, // the next poll tries again; nothing shown changes
      );
    };
    const t = setInterval(poll, TAG_POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') poll();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      clearInterval(t);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [tag, newReady, shownNew]);

  const showWaiting = () => {
    upsert(waiting);
    setLists((cur) => {
      const have = new Set(cur.new.ids);
      return { ...cur, new: { ...cur.new, ids: [...waiting.map((p) => p.id).filter((id) => !have.has(id)), ...cur.new.ids] } };
    });
    setWaiting([]);
    loadInfo();
    window.scrollTo({ top: 0 });
  };

  // Posts written in this session with the tag go on top of Newest at once.
  const mine = sort === 'new' ? created.filter((id) => byId[id] && hasTag(byId[id].content, tag)) : [];
  const ids = existingIds([...mine, ...list.ids], byId);
  const pending = waiting.filter((p) => !ids.includes(p.id)).length;

  const onTabKeys = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = SORTS.findIndex((s) => s.id === sort);
    let next = at;
    if (e.key === 'ArrowRight') next = (at + 1) % SORTS.length;
    else if (e.key === 'ArrowLeft') next = (at - 1 + SORTS.length) % SORTS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = SORTS.length - 1;
    else return;
    e.preventDefault();
    const id = SORTS[next]!.id;
    setSort(id);
    tabs.current[id]?.focus();
  };

  return (
    <div className="tag-page">
      <header className="card tag-page__header">
        <span className="tag-page__icon" aria-hidden="true">
          #
        </span>
        <div className="tag-page__heading">
          <h1 className="tag-page__title">#{tag}</h1>
          <p className="tag-page__count" aria-live="polite">
            {info ? info.postsLabel : <Skeleton height={14} width={72} />}
          </p>
        </div>
      </header>

      <div className="tag-page__tabs card" role="tablist" aria-label={`Posts with #${tag}`} onKeyDown={onTabKeys}>
        {SORTS.map((s) => (
          <button
            key={s.id}
            ref={(el) => {
              tabs.current[s.id] = el;
            }}
            type="button"
            role="tab"
            id={`tag-tab-${s.id}`}
            aria-selected={sort === s.id}
            aria-controls="tag-tabpanel"
            tabIndex={sort === s.id ? 0 : -1}
            className={`tag-page__tab${sort === s.id ? ' is-active' : ''}`}
            onClick={() => setSort(s.id)}
          >
            {s.label}
          </button>
        ))}
      </div>

      <div id="tag-tabpanel" role="tabpanel" aria-labelledby={`tag-tab-${sort}`} className="tag-page__panel">
        {/* The feed's pill and its 0 px tall box (features/feed/Feed.css, in the shell's stylesheet). */}
        {sort === 'new' && (
          <div className="feed__new-posts">
            <div className="visually-hidden" role="status" aria-live="polite">
              {pending > 0 ? newPostsText(pending) : ''}
            </div>
            {pending > 0 && (
              <button type="button" className="new-posts-pill" onClick={showWaiting}>
                <span aria-hidden="true">↑</span> {newPostsText(pending)}
              </button>
            )}
          </div>
        )}
        {list.status === 'loading' && ids.length === 0 && (
          <div className="tag-page__list" aria-busy="true" aria-label="Loading posts">
            <PostSkeleton />
            <PostSkeleton />
          </div>
        )}
        {list.status === 'offline' && <OfflineNotice savedAt="" what={`posts with #${tag}`} />}
        {list.status === 'error' && ids.length === 0 && (
          <div className="card empty-state">
            <p className="empty-state__title">Couldn't load posts</p>
            <button type="button" className="button button--secondary" onClick={() => void load(sort)}>
              Try again
            </button>
          </div>
        )}
        {list.status === 'ready' && ids.length === 0 && (
          <div className="card empty-state tag-page__empty">
            <p className="empty-state__title">No posts with #{tag} yet</p>
            <p className="empty-state__text">Posts that use #{tag} will show up here.</p>
          </div>
        )}
        {ids.length > 0 && (
          <div className="tag-page__list">
            {ids.map((id) => (
              <PostCard key={id} postId={id} />
            ))}
          </div>
        )}
        {list.loadingMore && <PostSkeleton />}
        {list.cursor !== null && !list.loadingMore && ids.length > 0 && (
          <button type="button" className="button button--secondary button--block tag-page__more" onClick={() => void loadMore(sort)}>
            Load more posts
          </button>
        )}
      </div>
    </div>
  );
}
