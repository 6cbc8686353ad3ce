import { forwardRef, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';

// A windowed list for long, chat-like histories: only the rows near the
// viewport are in the DOM (the rest is padding of their height), so ten
// thousand rows scroll as fast as thirty. Rows have their own heights: each
// rendered row is measured (ResizeObserver) and the others count as
// `estimate` until they have been seen. The list keeps the reader's place
// when rows are added above (an older page) or change height, and sticks to
// the bottom while the reader is there (a new message scrolls into view).

export interface VirtualListHandle {
  /** Scrolls so the row is in view ('end' puts it at the bottom edge). */
  scrollToIndex: (index: number, align?: 'nearest' | 'center' | 'end') => void;
  scrollToBottom: () => void;
  /** Whether the reader is at the end of the list. */
  atBottom: () => boolean;
  /** The scrolling element. */
  element: () => HTMLDivElement | null;
}

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** The height assumed for a row not yet measured. */
  estimate?: number;
  /** Pixels rendered beyond each edge of the viewport. */
  overscan?: number;
  /** The first row came into the rendered window (load what is before it). */
  onReachStart?: () => void;
  /** Whether the reader is at the end changed. */
  onAtBottomChange?: (atBottom: boolean) => void;
  className?: string;
  /** Attributes of the scrolling element (role, aria-label, tabIndex, onKeyDown…). */
  scrollerProps?: React.HTMLAttributes<HTMLDivElement>;
  /** Rendered after the rows, inside the scroller (not windowed). */
  footer?: ReactNode;
  /** Rendered before the rows, inside the scroller (not windowed). */
  header?: ReactNode;
}

const BOTTOM_SLACK_PX = 24;

/** The index of the last offset ≤ y (offsets ascending, offsets[0] = 0). */
export function rowAt(offsets: readonly number[], y: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function VirtualListInner<T>(props: VirtualListProps<T>, ref: React.ForwardedRef<VirtualListHandle>) {
  const { items, itemKey, renderItem, estimate = 64, overscan = 800, onReachStart, onAtBottomChange, className, scrollerProps, footer, header } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const stick = useRef(true);
  /**
   * The first row in view and how far into it the viewport's top is: what
   * stays put. The next row too, for when the first is gone (a separator
   * whose key changed as older rows came in above it).
   */
  const anchor = useRef<{ key: string; within: number; next?: { key: string; within: number } } | null>(null);

  const keys = useMemo(() => items.map(itemKey), [items, itemKey]);
  const offsets = useMemo(() => {
    const out = new Array<number>(keys.length + 1);
    out[0] = 0;
    for (let i = 0; i < keys.length; i++) out[i + 1] = out[i]! + (heights.current.get(keys[i]!) ?? estimate);
    return out;
    // `measured` changes when a height does: the offsets follow.
  }, [keys, estimate, measured]);
  const total = offsets[keys.length] ?? 0;
  const indexOfKey = useMemo(() => new Map(keys.map((k, i) => [k, i])), [keys]);

  // At the bottom the window is the end, whatever scrollTop says yet.
  const top = stick.current ? Math.max(0, total - viewport) : scrollTop;
  const start = keys.length === 0 ? 0 : rowAt(offsets, Math.max(0, top - overscan));
  const end = keys.length === 0 ? 0 : Math.min(keys.length, rowAt(offsets, top + viewport + overscan) + 1);

  const remember = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    if (atEnd !== stick.current) {
      stick.current = atEnd;
      onAtBottomChange?.(atEnd);
    }
    const headerH = (el.firstElementChild as HTMLElement | null)?.dataset.vlHeader !== undefined ? (el.firstElementChild as HTMLElement).offsetHeight : 0;
    const y = Math.max(0, el.scrollTop - headerH);
    const i = rowAt(offsets, y);
    const key = keys[i];
    const nextKey = keys[i + 1];
    anchor.current =
      key === undefined ? null : { key, within: y - offsets[i]!, next: nextKey === undefined ? undefined : { key: nextKey, within: y - offsets[i + 1]! } };
  }, [keys, offsets, onAtBottomChange]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    remember();
    setScrollTop(el.scrollTop);
  };

  // After every render: keep the reader's place (or the bottom).
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (stick.current) {
      if (el.scrollTop !== el.scrollHeight - el.clientHeight) el.scrollTop = el.scrollHeight;
      return;
    }
    let a: { key: string; within: number } | null | undefined = anchor.current;
    let i = a ? indexOfKey.get(a.key) : undefined;
    if (i === undefined && anchor.current?.next) {
      a = anchor.current.next;
      i = indexOfKey.get(a.key);
    }
    if (a && i !== undefined) {
      const headerH = (el.firstElementChild as HTMLElement | null)?.dataset.vlHeader !== undefined ? (el.firstElementChild as HTMLElement).offsetHeight : 0;
      const want = offsets[i]! + a.within + headerH;
      if (Math.abs(el.scrollTop - want) > 1) el.scrollTop = want;
    }
  });

  // The viewport's height, and the rows' heights as they render or change.
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setViewport(el.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const t = e.target as HTMLElement;
        if (t === el) {
          setViewport(el.clientHeight);
          continue;
        }
        const key = t.dataset.vlKey;
        const h = t.offsetHeight;
        if (key === undefined || h <= 0) continue;
        if (heights.current.get(key) !== h) {
          heights.current.set(key, h);
          changed = true;
        }
      }
      if (changed) setMeasured((n) => n + 1);
    });
    ro.observe(el);
    observer.current = ro;
    return () => {
      ro.disconnect();
      observer.current = null;
    };
  }, []);

  const measureRef = useCallback((node: HTMLDivElement | null) => {
    if (!node) return;
    observer.current?.observe(node);
    const key = node.dataset.vlKey;
    const h = node.offsetHeight;
    if (key !== undefined && h > 0 && heights.current.get(key) !== h) {
      heights.current.set(key, h);
      // A first measurement: the offsets follow in the next render.
      queueMicrotask(() => setMeasured((n) => n + 1));
    }
  }, []);

  const reachedStart = start === 0 && keys.length > 0;
  useEffect(() => {
    if (reachedStart) onReachStart?.();
  }, [reachedStart, keys[0], keys.length, onReachStart]);

  useImperativeHandle(
    ref,
    () => ({
      scrollToIndex: (index, align = 'nearest') => {
        const el = scroller.current;
        if (!el || index < 0 || index >= keys.length) return;
        const rowTop = offsets[index]!;
        const rowBottom = offsets[index + 1]!;
        let want = el.scrollTop;
        if (align === 'end') want = rowBottom - el.clientHeight;
        else if (align === 'center') want = (rowTop + rowBottom - el.clientHeight) / 2;
        else if (rowTop < el.scrollTop) want = rowTop;
        else if (rowBottom > el.scrollTop + el.clientHeight) want = rowBottom - el.clientHeight;
        stick.current = index === keys.length - 1 && align !== 'center';
        el.scrollTop = Math.max(0, want);
        remember();
        setScrollTop(el.scrollTop);
      },
      scrollToBottom: () => {
        const el = scroller.current;
        stick.current = true;
        onAtBottomChange?.(true);
        if (el) el.scrollTop = el.scrollHeight;
        setScrollTop(el?.scrollTop ?? 0);
      },
      atBottom: () => stick.current,
      element: () => scroller.current,
    }),
    [keys.length, offsets, remember, onAtBottomChange],
  );

  return (
    <div {...scrollerProps} ref={scroller} className={className} onScroll={onScroll}>
      {header !== undefined && <div data-vl-header="">{header}</div>}
      <div style={{ paddingTop: offsets[start] ?? 0, paddingBottom: total - (offsets[end] ?? total) }}>
        {items.slice(start, end).map((item, i) => {
          const key = keys[start + i]!;
          return (
            <div key={key} data-vl-key={key} ref={measureRef}>
              {renderItem(item, start + i)}
            </div>
          );
        })}
      </div>
      {footer}
    </div>
  );
}

/** See VirtualListProps; the handle scrolls it. */
export const VirtualList = forwardRef(VirtualListInner) as <T>(
  p: VirtualListProps<T> & { ref?: React.Ref<VirtualListHandle> },
) => ReturnType<typeof VirtualListInner>;
