// The painter's plan (api/paint.ts): what it takes from the app, made at
// build by vite.config.ts and by the painter's tests from the same sources —
// the icons rendered from ui/icons, the constants from where the app reads
// them. Never imported by the app itself (it renders with react-dom/server).

import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AVATAR_SIZE, DEFAULT_PRODUCT_NAME, POST_CAROUSEL_HEIGHT_PX } from '../constants';
import { STORAGE_KEYS } from '../lib/storageKeys';
import { FULL_DATE_OPTIONS } from '../lib/time';
import { BookmarkIcon, CommentIcon, HeartIcon, ImageIcon, MoreIcon, RepostIcon, SearchIcon, ShareIcon } from '../ui/icons';
import type { PaintIcons, PaintPlan } from './paint';

/** An icon's markup inside its <svg>. */
function iconMarkup(icon: ComponentType): string {
  const html = renderToStaticMarkup(createElement(icon));
  const inner = /^<svg[^>]*>([\s\S]*)<\/svg>$/.exec(html);
  if (!inner) throw new Error(`paint plan: an icon rendered as ${html}`);
  return inner[1]!;
}

export function paintPlan(): PaintPlan {
  const icons: PaintIcons = {
    search: iconMarkup(SearchIcon),
    heart: iconMarkup(HeartIcon),
    comment: iconMarkup(CommentIcon),
    share: iconMarkup(ShareIcon),
    more: iconMarkup(MoreIcon),
    image: iconMarkup(ImageIcon),
    repost: iconMarkup(RepostIcon),
    bookmark: iconMarkup(BookmarkIcon),
  };
  return {
    productName: DEFAULT_PRODUCT_NAME,
    avatarSize: AVATAR_SIZE,
    // PostCard's CLAMP_CHARS (features/feed/firstPaint.test.tsx holds the
    // two together).
    clampChars: 600,
    carouselHeight: POST_CAROUSEL_HEIGHT_PX,
    themeKey: STORAGE_KEYS.theme,
    authKey: STORAGE_KEYS.auth,
    darkQuery: '(prefers-color-scheme: dark)',
    icons,
    fullDate: FULL_DATE_OPTIONS,
  };
}
