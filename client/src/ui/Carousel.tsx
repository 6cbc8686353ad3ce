import { useRef, useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import './Carousel.css';

export interface CarouselImage {
  url: string;
  alt?: string;
  /** The server's copies (issue 16); the browser picks by the slot's width. */
  srcSet?: string;
  sizes?: string;
  /** The image's size in pixels (0 or absent: unknown), reserving its aspect ratio. */
  width?: number;
  height?: number;
}

/**
 * Several images, one at a time: arrows, dots, swipe and the arrow keys.
 * The height is fixed so the page does not jump between images.
 */
export function Carousel({
  images,
  height = 400,
  label = 'Images',
  initialIndex = 0,
  onOpen,
}: {
  images: CarouselImage[];
  height?: number;
  label?: string;
  /** The image shown first. */
  initialIndex?: number;
  /** Given, each image is a button that calls it with its index (to open a viewer). */
  onOpen?: (index: number) => void;
}) {
  const [index, setIndex] = useState(initialIndex);
  const touchX = useRef<number | null>(null);
  const count = images.length;
  if (count === 0) return null;
  const i = Math.min(index, count - 1);
  const go = (n: number) => setIndex(((n % count) + count) % count);

  return (
    <div
      className="carousel"
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      tabIndex={0}
      // Never taller than the screen is wide: tall letterboxes on phones waste the screen.
      style={{ height: `min(${height}px, 90vw)` }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') go(i - 1);
        if (e.key === 'ArrowRight') go(i + 1);
      }}
      onTouchStart={(e) => {
        touchX.current = e.touches[0]?.clientX ?? null;
      }}
      onTouchEnd={(e) => {
        const start = touchX.current;
        const end = e.changedTouches[0]?.clientX;
        touchX.current = null;
        if (start === null || end === undefined || Math.abs(end - start) < 40) return;
        go(end < start ? i + 1 : i - 1);
      }}
    >
      <div className="carousel__track" style={{ transform: `translateX(-${i * 100}%)` }}>
        {images.map((img, n) => (
          <div
            key={`${img.url}-${n}`}
            className="carousel__slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${n + 1} of ${count}`}
            aria-hidden={n !== i}
          >
            {onOpen ? (
              <button
                type="button"
                className="carousel__open"
                onClick={() => onOpen(n)}
                aria-haspopup="dialog"
                // Hidden slides stay out of the Tab order (aria-hidden content must not take focus).
                tabIndex={n === i ? 0 : -1}
              >
                <CarouselImg img={img} />
              </button>
            ) : (
              <CarouselImg img={img} />
            )}
          </div>
        ))}
      </div>
      {count > 1 && (
        <>
          <button type="button" className="carousel__nav carousel__nav--prev" onClick={() => go(i - 1)} aria-label="Previous image">
            <ChevronLeftIcon />
          </button>
          <button type="button" className="carousel__nav carousel__nav--next" onClick={() => go(i + 1)} aria-label="Next image">
            <ChevronRightIcon />
          </button>
          <div className="carousel__dots">
            {images.map((img, n) => (
              <button
                key={`${img.url}-dot-${n}`}
                type="button"
                className={`carousel__dot${n === i ? ' carousel__dot--active' : ''}`}
                onClick={() => go(n)}
                aria-label={`Show image ${n + 1}`}
                aria-current={n === i}
              />
            ))}
          </div>
          <span className="carousel__counter" aria-hidden="true">
            {i + 1}/{count}
          </span>
        </>
      )}
    </div>
  );
}

function CarouselImg({ img }: { img: CarouselImage }) {
  return (
    <img
      className="carousel__img"
      src={img.url}
      srcSet={img.srcSet}
      sizes={img.srcSet ? img.sizes : undefined}
      width={img.width || undefined}
      height={img.height || undefined}
      alt={img.alt ?? ''}
      loading="lazy"
      decoding="async"
      draggable={false}
    />
  );
}
