// srcset for the images the server resized on upload (issue 16): each image
// comes with copies 320 and 1280 px wide (those narrower than the original,
// and smaller in bytes) besides the original, so the browser fetches the
// smallest that fills its slot at the screen's pixel density.

export interface ImageVariant {
  url: string;
  width: number;
  height: number;
}

export interface SizedImage {
  url: string;
  /** The original's size; 0 when unknown (images from before sizes were kept). */
  width: number;
  height: number;
  variants: ImageVariant[];
}

/** "a.jpg 320w, b.jpg 1280w, c.jpg 4000w", or undefined when there is nothing to choose from. */
export function srcSetOf(img: SizedImage): string | undefined {
  if (img.variants.length === 0 || img.width <= 0) return undefined;
  const seen = new Set<number>();
  const parts: string[] = [];
  for (const v of [...img.variants, { url: img.url, width: img.width, height: img.height }]) {
    if (v.width <= 0 || seen.has(v.width)) continue;
    seen.add(v.width);
    parts.push(`${v.url} ${v.width}w`);
  }
  return parts.length > 1 ? parts.join(', ') : undefined;
}

/** The copy to use as src: the largest variant no wider than `max`, else the original. */
export function srcOf(img: SizedImage, max = Infinity): string {
  let best = img.url;
  let bestWidth = 0;
  for (const v of img.variants) {
    if (v.width <= max && v.width > bestWidth) {
      best = v.url;
      bestWidth = v.width;
    }
  }
  return best;
}
