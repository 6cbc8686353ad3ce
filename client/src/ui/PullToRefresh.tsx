import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { FETCH_MORE_THRESHOLD_PX, PULL_MAX_PX, PULL_THRESHOLD_PX } from '../constants';
import './PullToRefresh.css';

export interface PullToRefreshProps {
  children: ReactNode;
  /** Pulled past the threshold and released. */
  onRefresh: () => Promise<unknown>;
  /** Called when the page is scrolled within 100 px of the end (docs/product.md §9 fetch-more threshold). */
  onLoadMore?: () => void;
  hasMore?: boolean;
  loadingMore?: boolean;
  className?: string;
}

/** How far the content follows the finger: half the drag, up to the maximum (docs/product.md §9: 67 / 95). */
export function pullDistance(dragPx: number): number {
  return Math.max(0, Math.min(PULL_MAX_PX, dragPx * 0.5));
}

export function shouldRefresh(distance: number): boolean {
  return distance >= PULL_THRESHOLD_PX;
}

export function nearEnd(scrollTop: number, viewport: number, scrollHeight: number): boolean {
  return scrollHeight - (scrollTop + viewport) <= FETCH_MORE_THRESHOLD_PX;
}

/**
 * Pull-to-refresh on touch screens (the page must be scrolled to the top) and
 * infinite scroll for everyone. The window is the scroller.
 */
export function PullToRefresh({ children, onRefresh, onLoadMore, hasMore, loadingMore, className }: PullToRefreshProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [distance, setDistance] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const startY = useRef<number | null>(null);
  const distanceRef = useRef(0);
  const refreshingRef = useRef(false);
  const onRefreshRef = useRef(onRefresh);
  onRefreshRef.current = onRefresh;

  const setDist = (d: number) => {
    distanceRef.current = d;
    setDistance(d);
  };

  useEffect(() => {
    const el = rootRef.current;
    if (!el) return;
    const onStart = (e: TouchEvent) => {
      if (refreshingRef.current || window.scrollY > 0 || e.touches.length !== 1) return;
      startY.current = e.touches[0]!.clientY;
    };
    const onMove = (e: TouchEvent) => {
      if (startY.current === null) return;
      const dy = e.touches[0]!.clientY - startY.current;
      if (dy <= 0 || window.scrollY > 0) {
        if (distanceRef.current !== 0) setDist(0);
        return;
      }
      e.preventDefault(); // we are pulling, not scrolling
      setDist(pullDistance(dy));
    };
    const onEnd = () => {
      if (startY.current === null) return;
      startY.current = null;
      if (!shouldRefresh(distanceRef.current)) {
        setDist(0);
        return;
      }
      refreshingRef.current = true;
      setRefreshing(true);
      setDist(PULL_THRESHOLD_PX);
      void onRefreshRef.current().finally(() => {
        refreshingRef.current = false;
        setRefreshing(false);
        setDist(0);
      });
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, []);

  const check = useCallback(() => {
    if (!onLoadMore || !hasMore || loadingMore) return;
    const doc = document.documentElement;
    if (nearEnd(window.scrollY, window.innerHeight, doc.scrollHeight)) onLoadMore();
  }, [onLoadMore, hasMore, loadingMore]);

  useEffect(() => {
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    // The first page may not fill the screen: check once the content is there.
    const t = setTimeout(check, 0);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      clearTimeout(t);
    };
  }, [check]);

  const ready = shouldRefresh(distance);
  return (
    <div ref={rootRef} className={['ptr', className].filter(Boolean).join(' ')}>
      <div className="ptr__indicator" style={{ height: distance }} aria-hidden={distance === 0 && !refreshing}>
        {(distance > 0 || refreshing) && (
          <span className={`ptr__spinner${refreshing ? ' ptr__spinner--spinning' : ''}`} role="status">
            <span className="visually-hidden">
              {refreshing ? 'Refreshing…' : ready ? 'Release to refresh' : 'Pull to refresh'}
            </span>
          </span>
        )}
      </div>
      {children}
    </div>
  );
}
