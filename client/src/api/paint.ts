// The painter (issue 27, a first post at the network's floor). On a slow
// phone the app's code arrives a second after the document; the feed's
// document carries its first page (api/boot.ts hands it over), and this
// paints it at once: the shell's frame, the composer and plain post cards —
// author, time, text, counts, and each image's box at its size — with the
// app's own class names and the app's stylesheets, which that document has
// inline. When the app renders, React replaces the painted page with the
// same posts from the same data in one commit (main.tsx waits until it can),
// so nothing flashes and nothing moves.
//
// The cards are the markup PostCard renders, without the pictures (a photo
// or an avatar would take bandwidth the app's code needs: their boxes show
// as the app's do until they load) and inert: nothing opens or navigates
// until the app is there. features/feed/firstPaint.test.tsx holds the two to
// the same elements and text, and the budget e2e to the same place on screen.
//
// vite.config.ts writes `(paint)(window, plan)` into the build's first-page
// template after the root element, with the plan from api/paintPlan.ts; the
// server allows it by its hash. As boot.ts: self-contained, no imports, only
// structural types. Anything that goes wrong leaves the root empty, as
// before.

import type { BootHandoff } from './boot';

/** An icon's SVG children (ui/icons.tsx), as markup. */
export type PaintIcons = Record<'search' | 'heart' | 'comment' | 'share' | 'more' | 'image' | 'repost' | 'bookmark', string>;

export interface PaintPlan {
  /** The product's name until the app's config says otherwise. */
  productName: string;
  /** Avatars in cards and the composer (px). */
  avatarSize: number;
  /** Longer posts are cut here with "See more". */
  clampChars: number;
  /** The theme choice's storage key, and the query 'auto' follows. */
  themeKey: string;
  darkQuery: string;
  /** The saved session's storage key (its user's id: who reads). */
  authKey: string;
  /** A group of several images: the carousel's height (px). */
  carouselHeight: number;
  icons: PaintIcons;
  /** The options of the posts' full dates (lib/time's fullDate), to warm the engine's locale data. */
  fullDate: Intl.DateTimeFormatOptions;
}

/** The DOM the painter uses (structural: vite.config.ts is type-checked without the DOM's types). */
export interface PaintElement {
  className: string;
  innerHTML: string;
  firstChild: unknown;
  style: { width: string; height: string; fontSize: string; aspectRatio: string };
  append(...nodes: (PaintElement | string)[]): void;
  setAttribute(name: string, value: string): void;
}

export interface PaintDocument {
  documentElement: PaintElement;
  getElementById(id: string): PaintElement | null;
  createElement(tag: string): PaintElement;
  createElementNS(ns: string, tag: string): PaintElement;
}

/** The part of window the painter uses. */
export interface PaintWindow {
  document: PaintDocument;
  localStorage: { getItem(key: string): string | null };
  matchMedia?: (query: string) => { matches: boolean };
  requestAnimationFrame(callback: () => void): unknown;
  setTimeout(callback: () => void, ms: number): unknown;
  __campusBoot?: BootHandoff;
}

export function paint(w: PaintWindow, plan: PaintPlan): void {
  const boot = w.__campusBoot;
  const page = boot ? boot.firstPage : undefined;
  const d = w.document;
  const root = d.getElementById('root');
  if (!boot || !page || !root || root.firstChild || page.posts.length === 0) return;

  type Rec = Record<string, unknown>;
  const rec = (v: unknown): Rec => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {});
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : 0);
  const idOf = (r: Rec) => str(r.id) || str(r._id);

  // As ui/Avatar: two initials, a colour per name.
  const initials = (name: string) => {
    const words = name.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return 'U';
    return (words[0]!.charAt(0) + (words.length > 1 ? words[words.length - 1]!.charAt(0) : '')).toUpperCase();
  };
  const hue = (name: string) => {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return h % 8;
  };
  // As lib/time's relativeTime.
  const ago = (iso: string) => {
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return '';
    const s = Math.round((Date.now() - t) / 1000);
    if (s < 45) return 'just now';
    const units: [string, number][] = [
      ['year', 31536000],
      ['month', 2592000],
      ['week', 604800],
      ['day', 86400],
      ['hour', 3600],
      ['minute', 60],
    ];
    for (const [unit, size] of units) {
      if (s >= size) {
        const n = Math.floor(s / size);
        return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
      }
    }
    return 'just now';
  };

  /** An element with a class and children (strings become text). */
  type Kid = PaintElement | string | null;
  const el = (tag: string, cls: string, ...kids: Kid[]) => {
    const e = d.createElement(tag);
    if (cls) e.className = cls;
    for (const k of kids) if (k !== null) e.append(k);
    return e;
  };
  const attrs = (e: PaintElement, a: Record<string, string>) => {
    for (const k in a) e.setAttribute(k, a[k]!);
    return e;
  };
  const button = (cls: string, ...kids: Kid[]) => attrs(el('button', cls, ...kids), { type: 'button' });
  /** As ui/icons: 24-unit strokes at size px. */
  const icon = (name: keyof PaintIcons, size: number, filled = false, cls = '') => {
    const svg = d.createElementNS('http://www.w3.org/2000/svg', 'svg');
    attrs(svg, {
      width: String(size),
      height: String(size),
      viewBox: '0 0 24 24',
      fill: filled ? 'currentColor' : 'none',
      stroke: 'currentColor',
      'stroke-width': '2',
      'stroke-linecap': 'round',
      'stroke-linejoin': 'round',
      'aria-hidden': 'true',
      focusable: 'false',
    });
    if (cls) svg.setAttribute('class', cls);
    // The build's own markup (ui/icons.tsx): no data goes in here.
    svg.innerHTML = plan.icons[name];
    return svg;
  };
  /** As ui/Avatar before its picture loads: the colour, or the initials without one. */
  const avatar = (user: Rec) => {
    const name = str(user.name).trim() || 'User';
    const img = rec(user.avatar);
    const s = plan.avatarSize;
    const a = attrs(el('span', `avatar avatar--hue-${hue(name)}`), { role: 'img', 'aria-label': name });
    a.style.width = `${s}px`;
    a.style.height = `${s}px`;
    a.style.fontSize = `${Math.max(11, Math.round(s * 0.4))}px`;
    if (!str(img.thumbUrl) && !str(img.url)) a.append(attrs(el('span', 'avatar__initials'), { 'aria-hidden': 'true', 'data-initials': initials(name) }));
    return a;
  };

  // Who reads (the saved session, as features/auth reads it): PostCard
  // offers Repost on others' posts only.
  let me = '';
  try {
    me = str(rec(rec(JSON.parse(w.localStorage.getItem(plan.authKey) ?? 'null')).user).id);
  } catch {
    // No session saved, or not JSON: nobody to compare with.
  }

  /** As features/posts/PostCard, on the feed: a repost entry wraps its original. */
  const card = (post: Rec) => {
    const original = rec(post.repostOf);
    return idOf(original) ? repostEntry(post, original) : ownCard(post, false);
  };

  /** As PostCard's RepostEntry: "X reposted · when", the comment, the original embedded. */
  const repostEntry = (entry: Rec, original: Rec) => {
    const id = idOf(entry);
    const author = rec(entry.author ?? entry.user);
    const created = str(entry.createdAt);
    const comment = str(entry.content);
    const line = el(
      'p',
      'post-card__reposted',
      icon('repost', 14),
      attrs(button('post-card__author', str(author.name)), { id: `post-${id}-author` }),
      ' ',
      el('span', '', 'reposted'),
      created ? attrs(el('time', '', ' · ', ago(created)), { datetime: created }) : null,
    );
    return attrs(
      el(
        'article',
        'card post-card post-card--repost',
        line,
        comment ? el('div', 'post-card__content post-card__repost-comment', el('p', '', comment)) : null,
        ownCard(original, true),
      ),
      { 'aria-labelledby': `post-${id}-author`, 'data-post-id': id },
    );
  };

  /** As PostCard's OwnPostCard; embedded inside a repost entry, without a card frame. */
  const ownCard = (post: Rec, embedded: boolean) => {
    const id = idOf(post);
    const author = rec(post.author ?? post.user);
    const name = str(author.name).trim() || 'User';
    const content = str(post.content);
    const created = str(post.createdAt);
    const updated = str(post.updatedAt);
    const edited = str(post.editedAt) || (Date.parse(updated) - Date.parse(created) > 1000 ? updated : '');
    const group = rec(post.group);
    const images = (Array.isArray(post.images) ? post.images : []).map(rec).filter((i) => str(i.url) !== '');
    const likes = num(post.likesCount);
    const comments = num(post.commentsCount);
    const liked = post.isLiked === true;
    const reposts = num(post.repostsCount);
    const reposted = post.reposted === true;
    const saved = post.saved === true;
    // As PostCard's canRepost: signed in, not one's own, not a group's.
    const canRepost = me !== '' && idOf(author) !== me && str(post.userId) !== me && !idOf(group);

    const byline = el('span', 'post-card__byline', attrs(button('post-card__author', name), { id: `post-${id}-author` }));
    if (idOf(group) && str(group.handle)) {
      const link = attrs(el('a', 'post-card__group', el('span', 'visually-hidden', 'in the group '), str(group.name)), {
        href: `/g/${encodeURIComponent(str(group.handle))}`,
      });
      byline.append(attrs(el('span', 'post-card__in', ' ▸ '), { 'aria-hidden': 'true' }), link);
    }
    const sub = el('span', 'post-card__sub', str(author.role) === 'faculty' ? 'Faculty' : str(author.universityId) || 'Student');
    if (created) sub.append(' · ', button('post-card__time', attrs(el('time', '', ago(created)), { datetime: created })));
    if (edited) sub.append(' · ', el('span', 'post-card__edited', 'edited'));

    const article = attrs(el('article', embedded ? 'post-card post-card--embedded' : 'card post-card'), {
      'aria-labelledby': `post-${id}-author`,
      'data-post-id': id,
    });
    article.append(
      el(
        'header',
        'post-card__header',
        attrs(button('post-card__avatar', avatar(author)), { 'aria-label': `View ${name}'s profile` }),
        el('div', 'post-card__meta', byline, sub),
        el('div', 'post-menu', attrs(button('icon-button', icon('more', 20)), { 'aria-label': 'Post options' })),
      ),
    );
    if (content) {
      const long = content.length > plan.clampChars;
      article.append(
        el(
          'div',
          'post-card__content',
          el('p', '', long ? `${content.slice(0, plan.clampChars).trimEnd()}…` : content),
          long ? button('link-button', 'See more') : null,
        ),
      );
    }
    if (images.length === 1) {
      // The image's box, as its width and height attributes make it.
      const box = el('span', 'post-card__image');
      const iw = num(images[0]!.width);
      const ih = num(images[0]!.height);
      if (iw > 0 && ih > 0) box.style.aspectRatio = `${iw} / ${ih}`;
      article.append(el('div', 'post-card__media', button('post-image', box)));
    } else if (images.length > 1) {
      const c = el('div', 'carousel');
      c.style.height = `min(${plan.carouselHeight}px, 90vw)`;
      article.append(el('div', 'post-card__media', c));
    }
    article.append(
      el(
        'div',
        'post-card__stats',
        el(
          'span',
          'post-card__likes',
          likes > 0 ? attrs(el('span', 'post-card__like-dot', icon('heart', 12, true)), { 'aria-hidden': 'true' }) : null,
          el('span', '', attrs(el('span', '', String(likes)), { 'data-testid': 'likes-count' }), ' ', likes === 1 ? 'like' : 'likes'),
        ),
        el(
          'span',
          'post-card__counts',
          reposts > 0
            ? el(
                'span',
                'post-card__reposts-count',
                attrs(el('span', '', String(reposts)), { 'data-testid': 'reposts-count' }),
                ' ',
                reposts === 1 ? 'repost' : 'reposts',
              )
            : null,
          button(
            'link-button post-card__comments-count',
            attrs(el('span', '', String(comments)), { 'data-testid': 'comments-count' }),
            ' ',
            comments === 1 ? 'comment' : 'comments',
          ),
        ),
      ),
      el(
        'div',
        'post-card__actions',
        button(`post-action${liked ? ' is-liked' : ''}`, icon('heart', 18, liked), el('span', '', liked ? 'Liked' : 'Like')),
        button('post-action', icon('comment', 18), el('span', '', 'Comment')),
        canRepost
          ? button(`post-action${reposted ? ' is-reposted' : ''}`, icon('repost', 18), el('span', '', reposted ? 'Reposted' : 'Repost'))
          : null,
        el('span', 'tooltip-host', button('post-action', icon('share', 18), el('span', '', 'Share'))),
        button(`post-action${saved ? ' is-saved' : ''}`, icon('bookmark', 18, saved), el('span', '', saved ? 'Saved' : 'Save')),
      ),
    );
    return article;
  };

  try {
    // The theme first, as main.tsx applies it (features/theme).
    let choice: string | null = null;
    try {
      choice = w.localStorage.getItem(plan.themeKey);
    } catch {
      // Storage blocked: 'auto'.
    }
    const dark = choice === 'dark' || (choice !== 'light' && !!w.matchMedia && w.matchMedia(plan.darkQuery).matches);
    d.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');

    const product = plan.productName;
    const me = rec(page.me);
    const meName = str(me.name).trim() || 'User';
    const search = attrs(el('input', 'top-bar__search-input'), {
      type: 'search',
      readonly: '',
      placeholder: `Search ${product}...`,
      'aria-label': `Search ${product}`,
    });
    const list = el('div', 'feed__list');
    for (const p of page.posts) list.append(card(rec(p)));
    // What follows the list (FeedPage): the next page's button, or the end.
    const after = page.more
      ? button('button button--secondary button--block feed__more', 'Load more posts')
      : el('p', 'feed__end', "You're all caught up.");
    const indicator = attrs(el('div', 'ptr__indicator'), { 'aria-hidden': 'true' });
    indicator.style.height = '0px';
    // As FeedPage: the composer, the "N new posts" pill's place (0 px
    // tall), and the list with what follows it.
    const center = attrs(
      el(
        'section',
        'feed-layout__center',
        attrs(el('h1', 'visually-hidden', 'Feed'), { id: 'feed-title' }),
        el(
          'div',
          'card composer',
          el('div', 'composer__row', avatar(me), button('composer__prompt', `What's on your mind, ${meName.split(/\s+/)[0]}?`)),
          el(
            'div',
            'composer__actions',
            button('post-action', icon('image', 18, false, 'composer__photo-icon'), el('span', '', 'Photo')),
            button('button button--primary button--sm', 'Create Post'),
          ),
        ),
        el('div', 'feed__new-posts', attrs(el('div', 'visually-hidden'), { role: 'status', 'aria-live': 'polite' })),
        el('div', 'ptr feed', indicator, list, after),
      ),
      { 'aria-labelledby': 'feed-title' },
    );
    // As Shell and TopBar: the bar's frame with the logo and the search
    // field (the rest comes with the app), and the page.
    const topBar = el(
      'header',
      'top-bar',
      el(
        'div',
        'top-bar__inner',
        button(
          'top-bar__logo',
          attrs(el('span', 'top-bar__mark', product.charAt(0).toUpperCase()), { 'aria-hidden': 'true' }),
          el('span', 'top-bar__name', product),
          el('span', 'visually-hidden', ' home'),
        ),
        el('div', 'top-bar__search', icon('search', 18), search),
      ),
    );
    const shell = el(
      'div',
      'shell',
      topBar,
      el(
        'main',
        'shell__main',
        el(
          'div',
          'feed-layout',
          attrs(el('aside', 'feed-layout__left'), { 'aria-label': 'Quick links' }),
          center,
          attrs(el('aside', 'feed-layout__right'), { 'aria-label': 'Suggestions' }),
        ),
      ),
    );
    // Seen, not used: nothing here works until the app takes over.
    shell.setAttribute('inert', '');
    shell.setAttribute('data-first-paint', '');
    root.append(shell);
    boot.painted = true;
  } catch {
    // The app renders as before.
    return;
  }
  // The first date format costs the engine's locale data (~25 ms, four
  // times that on a slow phone) in the app's first render: paid after this
  // paint (the next frame's first task), while the app's code downloads.
  w.requestAnimationFrame(() =>
    w.setTimeout(() => {
      try {
        new Intl.DateTimeFormat(undefined, plan.fullDate).format(0);
      } catch {
        // Only a warm-up.
      }
    }, 0),
  );
}
