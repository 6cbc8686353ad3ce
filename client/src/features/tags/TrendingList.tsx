// What is trending on campus (issue 27 item 2): the feed's right-column card
// and the search overlay's idle list. Both read trendingAtoms; a trending
// post's counts move live (its row watches it, as a card does).

import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, type MouseEvent } from 'react';
import { AVATAR_SIZE_SEARCH } from '../../constants';
import { navigateAtom, pathOf, tagPath } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { Skeleton } from '../../ui/Skeleton';
import { postAtom } from '../posts/postsAtoms';
import { useWatchPost } from '../posts/useWatchPost';
import { loadTrendingAtom, trendingAtom } from './trendingAtoms';
import './Tags.css';

/** How many tags and posts each place shows. */
const CARD_TAGS = 5;
const CARD_POSTS = 3;
const SEARCH_TAGS = 5;
const SEARCH_POSTS = 3;

/** A post's one-line preview: its text, white space collapsed, or "Photo" for a post without text. */
export function postSnippet(content: string, images: number, max = 80): string {
  const s = content.replace(/\s+/g, ' ').trim();
  if (s === '') return images > 0 ? 'Photo' : 'Post';
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max).join('').trimEnd()}…`;
}

/** "3 likes · 1 comment". */
export function countsLabel(likes: number, comments: number): string {
  const n = (k: number, one: string) => `${k.toLocaleString('en-US')} ${one}${k === 1 ? '' : 's'}`;
  return `${n(likes, 'like')} · ${n(comments, 'comment')}`;
}

/** A click the browser should handle itself: a new tab or window. */
function opensElsewhere(e: MouseEvent): boolean {
  return e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey;
}

function useTrending() {
  const trending = useAtomValue(trendingAtom);
  const load = useSetAtom(loadTrendingAtom);
  useEffect(() => {
    void load();
  }, [load]);
  return trending;
}

/** A trending post in the card: its text, its author, its counts (live). */
function CardPost({ id }: { id: string }) {
  const post = useAtomValue(postAtom(id));
  const navigate = useSetAtom(navigateAtom);
  const ref = useRef<HTMLLIElement>(null);
  useWatchPost(ref, id, post !== undefined);
  if (!post) return null;
  return (
    <li ref={ref} className="trending__post">
      <a
        href={pathOf({ page: 'post', postId: id })}
        onClick={(e) => {
          if (opensElsewhere(e)) return;
          e.preventDefault();
          navigate({ page: 'post', postId: id });
        }}
      >
        {postSnippet(post.content, post.images.length)}
      </a>
      <span className="trending__meta">
        {post.author.name} · {countsLabel(post.likesCount, post.commentsCount)}
      </span>
    </li>
  );
}

/** The feed's right column: "Trending on campus", tags by the people posting them, then posts. */
export function TrendingCard() {
  const { status, tags, postIds } = useTrending();
  const navigate = useSetAtom(navigateAtom);
  if (status === 'error') return null; // silent, as People You May Know
  return (
    <section className="card trending" aria-labelledby="trending-title" aria-busy={status === 'loading'}>
      <h2 id="trending-title" className="trending__title">
        Trending on campus
      </h2>
      {status !== 'ready' ? (
        <div className="trending__loading">
          <Skeleton height={14} width="70%" />
          <Skeleton height={14} width="55%" />
          <Skeleton height={14} width="62%" />
        </div>
      ) : tags.length === 0 && postIds.length === 0 ? (
        <p className="muted trending__empty">Nothing is trending yet. Posts with #tags and lots of likes show up here.</p>
      ) : (
        <>
          {tags.length > 0 && (
            <ol className="trending__tags" aria-label="Trending tags">
              {tags.slice(0, CARD_TAGS).map((t) => (
                <li key={t.tag}>
                  <a
                    href={tagPath(t.tag)}
                    className="trending__tag"
                    onClick={(e) => {
                      if (opensElsewhere(e)) return;
                      e.preventDefault();
                      navigate({ page: 'tag', tag: t.tag });
                    }}
                  >
                    #{t.tag}
                  </a>
                  <span className="trending__meta">{t.peopleLabel}</span>
                </li>
              ))}
            </ol>
          )}
          {postIds.length > 0 && (
            <>
              <h3 className="trending__subtitle">Posts</h3>
              <ol className="trending__posts" aria-label="Trending posts">
                {postIds.slice(0, CARD_POSTS).map((id) => (
                  <CardPost key={id} id={id} />
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </section>
  );
}

/** A trending post in the search overlay: a result row. */
function SearchPost({ id, close }: { id: string; close: () => void }) {
  const post = useAtomValue(postAtom(id));
  const navigate = useSetAtom(navigateAtom);
  if (!post) return null;
  return (
    <li>
      <button
        type="button"
        className="search-result"
        onClick={() => {
          close();
          navigate({ page: 'post', postId: id });
        }}
      >
        <Avatar name={post.author.name} url={post.author.avatar.thumbUrl || post.author.avatar.url} variants={post.author.avatar.variants} size={AVATAR_SIZE_SEARCH} />
        <span className="search-result__text">
          <span className="search-result__title">{postSnippet(post.content, post.images.length)}</span>
          <span className="search-result__subtitle">
            {post.author.name} · {countsLabel(post.likesCount, post.commentsCount)}
          </span>
        </span>
        <span className="search-result__type search-result__type--post">Post</span>
      </button>
    </li>
  );
}

/** The search overlay with nothing typed: what is trending, as result rows (the arrow keys reach them). */
export function TrendingInSearch({ close }: { close: () => void }) {
  const { status, tags, postIds } = useTrending();
  const navigate = useSetAtom(navigateAtom);
  if (status !== 'ready' || (tags.length === 0 && postIds.length === 0)) return null;
  return (
    // Not a landmark: the feed's card behind the overlay is the page's "Trending on campus" region.
    <div className="search-trending">
      <h3 id="search-trending-title" className="search-trending__title">
        Trending on campus
      </h3>
      <ul className="search-results" aria-labelledby="search-trending-title">
        {tags.slice(0, SEARCH_TAGS).map((t) => (
          <li key={t.tag}>
            <button
              type="button"
              className="search-result"
              onClick={() => {
                close();
                navigate({ page: 'tag', tag: t.tag });
              }}
            >
              <span className="search-result__tag-icon" aria-hidden="true">
                #
              </span>
              <span className="search-result__text">
                <span className="search-result__title">#{t.tag}</span>
                <span className="search-result__subtitle">{t.peopleLabel}</span>
              </span>
              <span className="search-result__type search-result__type--tag">Tag</span>
            </button>
          </li>
        ))}
        {postIds.slice(0, SEARCH_POSTS).map((id) => (
          <SearchPost key={id} id={id} close={close} />
        ))}
      </ul>
    </div>
  );
}
