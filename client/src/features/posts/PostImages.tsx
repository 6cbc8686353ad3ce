import { Suspense, useState } from 'react';
import { POST_CAROUSEL_HEIGHT_PX } from '../../constants';
import { lazyScreen } from '../../ui/lazyScreen';
import { srcOf, srcSetOf } from '../../lib/srcset';
import { Carousel } from '../../ui/Carousel';
import { ChunkBoundary } from '../../ui/ChunkBoundary';
import type { ViewerImage } from '../../ui/ImageViewer';
import type { PostImage } from './model';
import './PostImages.css';

// The viewer is loaded when first opened: the feed's first screen does not need it.
const ImageViewer = lazyScreen(() => import('../../ui/ImageViewer').then((m) => m.ImageViewer)).Component;

/** The feed column is at most 680 px wide; on phones an image spans the screen. */
export const POST_IMAGE_SIZES = '(max-width: 700px) 100vw, 680px';

/** An image's alt: the author's description, else what it is ("Image 2 shared by Asha Rao"). */
export function altOf(img: PostImage, n: number, count: number, authorName: string): string {
  if (img.alt) return img.alt;
  return count > 1 ? `Image ${n + 1} shared by ${authorName}` : `Image shared by ${authorName}`;
}

/**
 * A post's images (issue 16): lazy, with their size reserved (width and
 * height, so nothing below moves when they arrive), the server's copies in
 * srcset, and a click, Enter or Space opens the full-screen viewer on the
 * image, which gives focus back to it on close.
 */
export function PostImages({ images, authorName }: { images: PostImage[]; authorName: string }) {
  const [open, setOpen] = useState<number | null>(null);
  if (images.length === 0) return null;
  const label = images.length > 1 ? `Images shared by ${authorName}` : `Image shared by ${authorName}`;
  const viewerImages: ViewerImage[] = images.map((img, n) => ({ ...img, alt: altOf(img, n, images.length, authorName) }));

  return (
    <div className="post-card__media">
      {images.length === 1 ? (
        <button
          type="button"
          className="post-image"
          onClick={() => setOpen(0)}
          aria-haspopup="dialog"
        >
          <img
            className="post-card__image"
            src={srcOf(images[0]!, 1280)}
            srcSet={srcSetOf(images[0]!)}
            sizes={POST_IMAGE_SIZES}
            width={images[0]!.width || undefined}
            height={images[0]!.height || undefined}
            alt={viewerImages[0]!.alt}
            loading="lazy"
            decoding="async"
          />
        </button>
      ) : (
        <Carousel
          images={images.map((img, n) => ({
            url: srcOf(img, 1280),
            srcSet: srcSetOf(img),
            sizes: POST_IMAGE_SIZES,
            width: img.width,
            height: img.height,
            alt: viewerImages[n]!.alt,
          }))}
          height={POST_CAROUSEL_HEIGHT_PX}
          label={label}
          onOpen={setOpen}
        />
      )}
      {open !== null && (
        <ChunkBoundary className="chunk-error--inline" onDismiss={() => setOpen(null)}>
          <Suspense fallback={null}>
            <ImageViewer images={viewerImages} index={open} label={label} onClose={() => setOpen(null)} />
          </Suspense>
        </ChunkBoundary>
      )}
    </div>
  );
}
