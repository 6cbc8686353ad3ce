import { useState } from 'react';
import { AVATAR_SIZE } from '../constants';
import type { ImageVariant } from '../lib/srcset';
// Its styles (Avatar.css) are in the main stylesheet: main.tsx imports them.

/** Up to two initials: first and last word of the name ('User' when there is no name). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'U';
  const first = words[0]!.charAt(0);
  const last = words.length > 1 ? words[words.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}

/** A stable colour for a name, so a person keeps theirs everywhere. */
export function hueIndex(name: string, buckets = 8): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h % buckets;
}

export interface AvatarProps {
  name: string;
  url?: string;
  /** Pixels; 40 by default, 32 in search (docs/product.md §9). */
  size?: number;
  /**
   * The picture's smaller copies (the server's variants): with them the
   * browser loads the smallest that fills `size` at the screen's density —
   * the 96 px copy for a 40 px avatar, not the 320 px one (issue 27).
   */
  variants?: readonly ImageVariant[];
  className?: string;
}

/**
 * A round avatar: the picture, or initials drawn here when there is no url or
 * it fails to load (no external avatar service: CSP is default-src 'self').
 */
/** "a-96.jpg 96w, a-320.jpg 320w", or undefined without copies. */
export function avatarSrcSet(variants: readonly ImageVariant[] | undefined): string | undefined {
  const list = (variants ?? []).filter((v) => v.url && v.width > 0);
  return list.length > 0 ? list.map((v) => `${v.url} ${v.width}w`).join(', ') : undefined;
}

export function Avatar({ name, url, size = AVATAR_SIZE, className, variants }: AvatarProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showImage = !!url && failedUrl !== url;
  const classes = ['avatar', `avatar--hue-${hueIndex(name)}`, className].filter(Boolean).join(' ');
  // Sizes vary per use; CSSOM styles set by React are allowed under the CSP.
  const style = { width: size, height: size, fontSize: Math.max(11, Math.round(size * 0.4)) };
  return (
    <span className={classes} style={style} role="img" aria-label={name}>
      {showImage ? (
        <img
          className="avatar__img"
          src={url}
          srcSet={avatarSrcSet(variants)}
          sizes={`${size}px`}
          alt=""
          draggable={false}
          onError={() => setFailedUrl(url)}
        />
      ) : (
        // Drawn by CSS from data-initials: the initials are decoration (the
        // name is the label), and as a text node they would be the "visible
        // label" of every button wrapping an avatar, which then mismatches
        // its real name ("View Asha Rao's profile") for speech users.
        <span className="avatar__initials" aria-hidden="true" data-initials={initialsOf(name)} />
      )}
    </span>
  );
}
