import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { navigateAtom } from '../../lib/navigation';
import { srcOf, srcSetOf } from '../../lib/srcset';
import { Avatar } from '../../ui/Avatar';
import { CommentIcon, HeartIcon } from '../../ui/icons';
import { postAtom } from '../posts/postsAtoms';
import { unwatchPostAtom, watchPostAtom } from '../posts/watchAtoms';
import { groupAtom, liveAtom, loadLiveAtom } from './groupsAtoms';
import { eventSpan } from './model';
import './LiveView.css';

/** How often the big screen asks for the order again (counts move live in between). */
export const LIVE_REFRESH_MS = 10_000;
/**
 * Hot posts the big screen shows: one column of five beside the pinned post,
 * two of five without one. Everything fits one 16:9 screen, never scrolled.
 */
export const LIVE_HOT_BESIDE_PINNED = 5;
export const LIVE_HOT_ALONE = 10;
/** Characters of a hot post's text on the big screen (the pinned one shows more). */
export const LIVE_TEXT_CHARS = 220;

export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max).trimEnd()}…` : t;
}

/**
 * A count that shows it moved: the old number rolls up and out while the new
 * one rolls in, with a short pop of colour (none under prefers-reduced-motion:
 * the CSS turns the animations off and the number just changes). The text is
 * the new number at once; the outgoing one is decoration.
 */
function LiveCount({ value, label, testId, children }: { value: number; label: string; testId: string; children: React.ReactNode }) {
  const prev = useRef(value);
  const [move, setMove] = useState<{ n: number; from: number; up: boolean }>({ n: 0, from: value, up: true });
  useEffect(() => {
    if (prev.current !== value) {
      const from = prev.current;
      prev.current = value;
      setMove((m) => ({ n: m.n + 1, from, up: value > from }));
    }
  }, [value]);
  const bumped = move.n > 0;
  return (
    <span className="live-count" aria-label={`${value.toLocaleString('en-US')} ${label}`}>
      {children}
      <span className="live-count__roll">
        {/* A new key restarts the CSS animations on every change. */}
        <span
          key={move.n}
          className={`live-count__value${bumped ? ` is-bumped ${move.up ? 'is-up' : 'is-down'}` : ''}`}
          data-testid={testId}
        >
          {value.toLocaleString('en-US')}
        </span>
        {bumped && (
          <span key={`out-${move.n}`} className={`live-count__old ${move.up ? 'is-up' : 'is-down'}`} aria-hidden="true">
            {move.from.toLocaleString('en-US')}
          </span>
        )}
      </span>
    </span>
  );
}

/** Watches the posts on the big screen (all of them are on screen), so their counts move live. */
function useWatchAll(ids: readonly string[]): void {
  const watch = useSetAtom(watchPostAtom);
  const unwatch = useSetAtom(unwatchPostAtom);
  const key = ids.join(',');
  useEffect(() => {
    const list = key === '' ? [] : key.split(',');
    list.forEach(watch);
    return () => list.forEach(unwatch);
  }, [key, watch, unwatch]);
}

function LivePost({ postId, rank, pinned = false }: { postId: string; rank?: number; pinned?: boolean }) {
  const post = useAtomValue(postAtom(postId));
  if (!post) return null;
  const text = clip(post.content, pinned ? LIVE_TEXT_CHARS * 2 : LIVE_TEXT_CHARS);
  const image = pinned ? post.images[0] : undefined;
  return (
    <article
      className={`live-post${pinned ? ' live-post--pinned' : ' live-post--row'}${image ? ' has-image' : ''}`}
      data-post-id={post.id}
      aria-label={pinned ? 'Pinned post' : `Number ${rank}`}
    >
      {pinned ? <p className="live-post__badge">Pinned</p> : <span className="live-post__rank" aria-hidden="true">{rank}</span>}
      {text ? <p className="live-post__text">{text}</p> : post.images.length > 0 && <p className="live-post__text live-post__text--muted">A photo</p>}
      {image && (
        <img
          className="live-post__image"
          src={srcOf(image, 1280)}
          srcSet={srcSetOf(image)}
          sizes="55vw"
          alt={image.alt || `Image shared by ${post.author.name}`}
        />
      )}
      <span className="live-post__author">
        <Avatar name={post.author.name} url={post.author.avatar.thumbUrl || post.author.avatar.url} variants={post.author.avatar.variants} size={pinned ? 48 : 32} />
        <span>{post.author.name}</span>
      </span>
      <span className="live-post__counts">
        <LiveCount value={post.likesCount} label={post.likesCount === 1 ? 'like' : 'likes'} testId="live-likes">
          <HeartIcon size={pinned ? 40 : 28} filled />
        </LiveCount>
        <LiveCount value={post.commentsCount} label={post.commentsCount === 1 ? 'comment' : 'comments'} testId="live-comments">
          <CommentIcon size={pinned ? 40 : 28} />
        </LiveCount>
      </span>
    </article>
  );
}

/**
 * `/g/{handle}/live` (issue 18): the event's big screen. No app chrome, type
 * large enough to read from the back of a hall, a dark theme of its own for a
 * dark room; on a landscape screen everything fits one screen without
 * scrolling (the pinned post beside a compact hot list). The pinned post and
 * the hottest posts, their counts moving live over the socket's post:counts
 * watch, their order fetched again every LIVE_REFRESH_MS.
 */
export function LiveView({ handle }: { handle: string }) {
  const group = useAtomValue(groupAtom(handle));
  const live = useAtomValue(liveAtom(handle));
  const load = useSetAtom(loadLiveAtom);
  const navigate = useSetAtom(navigateAtom);

  useEffect(() => {
    void load(handle);
    const t = setInterval(() => void load(handle), LIVE_REFRESH_MS);
    return () => clearInterval(t);
  }, [handle, load]);

  const hotIds = live.hotIds.slice(0, live.pinnedId ? LIVE_HOT_BESIDE_PINNED : LIVE_HOT_ALONE);
  useWatchAll(live.pinnedId ? [live.pinnedId, ...hotIds] : hotIds);

  const back = (
    <a
      className="live__back"
      href={`/g/${encodeURIComponent(handle)}`}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate({ page: 'group', handle });
      }}
    >
      Back to the group
    </a>
  );

  if (live.status === 'notfound' || (live.status === 'error' && !group)) {
    return (
      <main className="live live--message" id="main">
        <h1 className="live__title">{live.status === 'notfound' ? 'Group not found' : "Couldn't load the live view"}</h1>
        {back}
      </main>
    );
  }

  const span = group?.kind === 'event' ? eventSpan(group.startsAt, group.endsAt) : '';
  return (
    <main className="live" id="main">
      <header className="live__head">
        <div>
          <h1 className="live__title">{group?.name ?? '…'}</h1>
          {span && <p className="live__when">{span}</p>}
        </div>
        <p className="live__status">
          <span className="live__dot" aria-hidden="true" />
          Live
        </p>
      </header>
      {live.status === 'loading' || live.status === 'idle' ? (
        <p className="live__empty" role="status">
          Loading…
        </p>
      ) : (
        <div className={`live__board${live.pinnedId ? ' has-pinned' : ''}`}>
          {live.pinnedId && <LivePost postId={live.pinnedId} pinned />}
          {hotIds.length > 0 ? (
            <section className="live__hot" aria-labelledby="live-hot">
              <h2 id="live-hot" className="live__subtitle">
                Hot right now
              </h2>
              <ol className="live__list">
                {hotIds.map((id, i) => (
                  <li key={id}>
                    <LivePost postId={id} rank={i + 1} />
                  </li>
                ))}
              </ol>
            </section>
          ) : (
            !live.pinnedId && <p className="live__empty">No posts yet. Post in the group and watch them appear here.</p>
          )}
        </div>
      )}
      <footer className="live__foot">{back}</footer>
    </main>
  );
}
