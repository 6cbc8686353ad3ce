// Its styles (Skeleton.css) are in the main stylesheet: main.tsx imports them.

/** A shimmering placeholder block. */
export function Skeleton({ className, width, height, round }: { className?: string; width?: number | string; height?: number | string; round?: boolean }) {
  return (
    <span
      className={['skeleton', round ? 'skeleton--round' : '', className].filter(Boolean).join(' ')}
      style={{ width, height }}
      aria-hidden="true"
    />
  );
}

/** The shape of a post card while the feed loads (docs/product.md §2.12: 3 of them). */
export function PostSkeleton() {
  return (
    <div className="card post-skeleton" aria-hidden="true">
      <div className="post-skeleton__head">
        <Skeleton round width={40} height={40} />
        <div className="post-skeleton__lines">
          <Skeleton width="40%" height={12} />
          <Skeleton width="25%" height={10} />
        </div>
      </div>
      <Skeleton width="92%" height={12} />
      <Skeleton width="75%" height={12} />
      <Skeleton width="100%" height={180} />
    </div>
  );
}
