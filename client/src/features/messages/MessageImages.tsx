import { Suspense, useState } from 'react';
import { srcOf, srcSetOf } from '../../lib/srcset';
import { ChunkBoundary } from '../../ui/ChunkBoundary';
import type { ViewerImage } from '../../ui/ImageViewer';
import { lazyScreen } from '../../ui/lazyScreen';
import type { MessageImage, OutgoingImage } from './model';

// The viewer loads when first opened, as a post's does.
const ImageViewer = lazyScreen(() => import('../../ui/ImageViewer').then((m) => m.ImageViewer)).Component;

/** A bubble is at most 75% of the thread (560 px); a grid cell half of that. */
const SIZES_ONE = '(max-width: 700px) 70vw, 320px';
const SIZES_GRID = '(max-width: 700px) 35vw, 160px';

/** An image's alt: the sender's description, else what it is ("Image 2 sent by Asha Rao"). */
export function messageImageAlt(img: Pick<MessageImage, 'alt'>, n: number, count: number, senderName: string): string {
  if (img.alt.trim()) return img.alt.trim();
  return count > 1 ? `Image ${n + 1} sent by ${senderName}` : `Image sent by ${senderName}`;
}

/**
 * A message's images in its bubble: one shown whole (its size reserved), two
 * to four as square thumbnails in a grid; a click, Enter or Space opens the
 * full-screen viewer on that image (←/→ through the others, the description
 * under it), which gives focus back on close.
 */
export function MessageImages({ images, senderName, tabbable }: { images: MessageImage[]; senderName: string; tabbable: boolean }) {
  const [open, setOpen] = useState<number | null>(null);
  if (images.length === 0) return null;
  const label = images.length > 1 ? `Images sent by ${senderName}` : `Image sent by ${senderName}`;
  const viewerImages: ViewerImage[] = images.map((img, n) => ({ ...img, alt: messageImageAlt(img, n, images.length, senderName) }));
  const one = images.length === 1;
  return (
    <>
      <div className={`msg__images msg__images--${images.length}`} role="group" aria-label={label}>
        {images.map((img, n) => (
          <button
            key={img.url}
            type="button"
            className="msg__image"
            aria-haspopup="dialog"
            tabIndex={tabbable ? 0 : -1}
            onClick={() => setOpen(n)}
          >
            <img
              src={srcOf(img, one ? 1280 : 320)}
              srcSet={srcSetOf(img)}
              sizes={one ? SIZES_ONE : SIZES_GRID}
              width={img.width || undefined}
              height={img.height || undefined}
              alt={viewerImages[n]!.alt}
              loading="lazy"
              decoding="async"
            />
          </button>
        ))}
      </div>
      {open !== null && (
        <ChunkBoundary className="chunk-error--inline" onDismiss={() => setOpen(null)}>
          <Suspense fallback={null}>
            <ImageViewer images={viewerImages} index={open} label={label} onClose={() => setOpen(null)} />
          </Suspense>
        </ChunkBoundary>
      )}
    </>
  );
}

/** The images of a send still on its way: the previews picked, not yet openable. */
export function PendingImages({ images }: { images: OutgoingImage[] }) {
  if (images.length === 0) return null;
  return (
    <div className={`msg__images msg__images--${images.length}`}>
      {images.map((im, n) => (
        <span key={im.url || n} className="msg__image">
          <img src={im.url || undefined} alt={im.alt.trim() || `Image ${n + 1} you are sending`} />
        </span>
      ))}
    </div>
  );
}
