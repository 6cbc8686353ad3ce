import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { navigateAtom } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { CommentIcon, HeartIcon } from '../../ui/icons';
import { postAtom } from '../posts/postsAtoms';
import { unwatchPostAtom, watchPostAtom } from '../posts/watchAtoms';
import { groupAtom, liveAtom, loadLiveAtom } from './groupsAtoms';
import { eventSpan } from './model';
import './LiveView.css';

/** How often the big screen asks for the order again (counts move live in between). */
export const LIVE_REFRESH_MS = 10_000;
/** Characters of a hot post's text on the big screen (the pinned one shows more). */
export const LIVE_TEXT_CHARS = 220;

export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max).trimEnd()}…` : t;
}

/**
 * A count that shows it moved: a short pop each time it changes (none under
 * prefers-reduced-motion: the CSS turns the animation off).
 */
function LiveCount({ value, label, testId, children }: { value: number; label: string; testId: string; children: React.ReactNode }) {
  const prev = useRef(value);
  const [bumps, setBumps] = useState(0);
  useEffect(() => {
    if (prev.current !== value) {
      prev.current = value;
      setBumps((n) => n + 1);
    }
  }, [value]);
  return (
    <span className="live-count" aria-label={`${value.toLocaleString('en-US')} ${label}`}>
      {children}
      {/* A new key restarts the CSS animation on every change. */}
      <span key={bumps} className={`live-count__value${bumps > 0 ? ' is-bumped' : ''}`} data-testid={testId}>
        {value.toLocaleString('en-US')}
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
  return (
    <article className={`live-post${pinned ? ' live-post--pinned' : ''}`} data-post-id={post.id} aria-label={pinned ? 'Pinned post' : `Number ${rank}`}>
      {pinned ? <p className="live-post__badge">Pinned</p> : <span className="live-post__rank" aria-hidden="true">{rank}</span>}
      <div className="live-post__body">
        {text ? <p className="live-post__text">{text}</p> : post.images.length > 0 && <p className="live-post__text live-post__text--muted">A photo</p>}
        {post.images[0] && pinned && <img className="live-post__image" src={post.images[0].url} alt={`Image shared by ${post.author.name}`} />}
        <div className="live-post__foot">
          <span className="live-post__author">
            <Avatar name={post.author.name} url={post.author.avatar.url} size={pinned ? 56 : 44} />
            <span>{post.author.name}</span>
          </span>
          <span className="live-post__counts">
            <LiveCount value={post.likesCount} label={post.likesCount === 1 ? 'like' : 'likes'} testId="live-likes">
              <HeartIcon size={pinned ? 40 : 32} filled />
            </LiveCount>
            <LiveCount value={post.commentsCount} label={post.commentsCount === 1 ? 'comment' : 'comments'} testId="live-comments">
              <CommentIcon size={pinned ? 40 : 32} />
            </LiveCount>
          </span>
        </div>
      </div>
    </article>
  );
}

/**
 * `/g/{handle}/live` (issue 18): the event's big screen. No app chrome, type
 * large enough to read from the back of a hall; the pinned post and the
 * hottest posts, their counts moving live over the socket's post:counts
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

  useWatchAll(live.pinnedId ? [live.pinnedId, ...live.hotIds] : live.hotIds);

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
        <>
          {live.pinnedId && <LivePost postId={live.pinnedId} pinned />}
          {live.hotIds.length > 0 ? (
            <section aria-labelledby="live-hot">
              <h2 id="live-hot" className="live__subtitle">
                Hot right now
              </h2>
              <ol className="live__grid">
                {live.hotIds.map((id, i) => (
                  <li key={id}>
                    <LivePost postId={id} rank={i + 1} />
                  </li>
                ))}
              </ol>
            </section>
          ) : (
            !live.pinnedId && <p className="live__empty">No posts yet. Post in the group and watch them appear here.</p>
          )}
        </>
      )}
      <footer className="live__foot">{back}</footer>
    </main>
  );
}
