import { useEffect, useId, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { srcOf, srcSetOf, type SizedImage } from '../lib/srcset';
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon } from './icons';
import {
  clampPan,
  distance,
  keyAction,
  MAX_SCALE,
  MIN_SCALE,
  navigate,
  pinchScale,
  swipeAction,
  zoom,
  type ViewerAction,
} from './imageViewerLogic';
import { tabbables } from './Modal';
import './ImageViewer.css';

export interface ViewerImage extends SizedImage {
  alt: string;
}

export interface ImageViewerProps {
  images: ViewerImage[];
  /** The image shown first. */
  index: number;
  onClose: () => void;
  /** Names the dialog, e.g. "Images shared by Asha Rao". */
  label: string;
}

type Point = { x: number; y: number };

/**
 * The full-screen image viewer (issue 16): ←/→ (and Home/End) step through
 * the images, Esc closes, +/−/0 zoom; on touch a swipe steps and a pinch
 * zooms, a drag pans the zoomed image (pointer events; touch-action: none on
 * the stage keeps the browser from scrolling or zooming the page instead).
 * It is a modal dialog: Tab stays inside, and closing gives focus back to
 * whatever opened it (the image the user clicked). Motion is left out under
 * prefers-reduced-motion (CSS).
 */
export function ImageViewer({ images, index: initial, onClose, label }: ImageViewerProps) {
  const count = images.length;
  const [index, setIndex] = useState(() => navigate(initial, count, 'resetZoom'));
  const [scale, setScale] = useState(MIN_SCALE);
  const [pan, setPan] = useState<Point>({ x: 0, y: 0 });
  // While fingers or the mouse move the image, it follows without easing.
  const [dragging, setDragging] = useState(false);
  const panelRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();
  const captionId = useId();

  // Live gesture state: the pointers down on the stage, and what a pinch or
  // drag started from.
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<{ start: Point; startPan: Point; startScale: number; startDistance: number; pinched: boolean } | null>(
    null,
  );

  const act = (action: ViewerAction) => {
    if (action === 'close') {
      onCloseRef.current();
      return;
    }
    if (action === 'zoomIn' || action === 'zoomOut' || action === 'resetZoom') {
      const next = zoom(scale, action);
      setScale(next);
      const box = stageRef.current?.getBoundingClientRect();
      setPan((p) => (box ? clampPan(p.x, p.y, next, box.width, box.height) : { x: 0, y: 0 }));
      return;
    }
    const next = navigate(index, count, action);
    if (next !== index) {
      setIndex(next);
      setScale(MIN_SCALE);
      setPan({ x: 0, y: 0 });
    }
  };
  const actRef = useRef(act);
  actRef.current = act;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    panelRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    document.body.classList.add('modal-open');
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab' && panelRef.current) {
        // Keep Tab inside the viewer.
        const items = tabbables(panelRef.current);
        if (items.length === 0) return;
        const first = items[0]!;
        const last = items[items.length - 1]!;
        const active = document.activeElement as HTMLElement | null;
        if (!active || !items.includes(active)) {
          e.preventDefault();
          (e.shiftKey ? last : first).focus();
        } else if (e.shiftKey && active === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && active === last) {
          e.preventDefault();
          first.focus();
        }
        return;
      }
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const action = keyAction(e.key);
      if (!action) return;
      e.preventDefault();
      e.stopPropagation();
      actRef.current(action);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (!document.querySelector('.modal__backdrop')) document.body.classList.remove('modal-open');
      // Back to the image that opened the viewer, if it is still there.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const img = images[index];
  if (!img) return null;

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    setDragging(true);
    const pts = [...pointers.current.values()];
    gesture.current = {
      start: pts[0]!,
      startPan: pan,
      startScale: scale,
      startDistance: pts.length >= 2 ? distance(pts[0]!, pts[1]!) : 0,
      pinched: (gesture.current?.pinched ?? false) || pts.length >= 2,
    };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId) || !gesture.current) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const pts = [...pointers.current.values()];
    const g = gesture.current;
    const box = e.currentTarget.getBoundingClientRect();
    if (pts.length >= 2) {
      const next = pinchScale(g.startScale, g.startDistance, distance(pts[0]!, pts[1]!));
      setScale(next);
      setPan((p) => clampPan(p.x, p.y, next, box.width, box.height));
    } else if (scale > MIN_SCALE) {
      const p = pts[0]!;
      setPan(clampPan(g.startPan.x + p.x - g.start.x, g.startPan.y + p.y - g.start.y, scale, box.width, box.height));
    }
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const end = pointers.current.get(e.pointerId);
    pointers.current.delete(e.pointerId);
    const g = gesture.current;
    if (pointers.current.size > 0) {
      // One finger of a pinch lifted: the other goes on from here as a drag.
      const rest = [...pointers.current.values()][0]!;
      gesture.current = { start: rest, startPan: pan, startScale: scale, startDistance: 0, pinched: true };
      return;
    }
    gesture.current = null;
    setDragging(false);
    if (!g || !end || g.pinched || scale > MIN_SCALE || e.type === 'pointercancel') return;
    const swipe = swipeAction(end.x - g.start.x, end.y - g.start.y);
    if (swipe) act(swipe);
  };

  const srcSet = srcSetOf(img);
  const atFirst = index === 0;
  const atLast = index === count - 1;
  return createPortal(
    <div className="image-viewer">
      <div
        ref={panelRef}
        className="image-viewer__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={img.alt ? captionId : undefined}
      >
        <h2 id={titleId} className="visually-hidden">
          {count > 1 ? `${label}, image ${index + 1} of ${count}` : label}
        </h2>
        <div className="image-viewer__toolbar">
          {count > 1 && (
            <span className="image-viewer__counter" aria-hidden="true">
              {index + 1} / {count}
            </span>
          )}
          <button type="button" className="image-viewer__button" onClick={() => act('zoomOut')} disabled={scale <= MIN_SCALE} aria-label="Zoom out">
            <span aria-hidden="true">−</span>
          </button>
          <button type="button" className="image-viewer__button" onClick={() => act('zoomIn')} disabled={scale >= MAX_SCALE} aria-label="Zoom in">
            <span aria-hidden="true">+</span>
          </button>
          <button type="button" className="image-viewer__button" onClick={onClose} aria-label="Close image viewer" data-autofocus>
            <CloseIcon />
          </button>
        </div>
        <div
          ref={stageRef}
          className={`image-viewer__stage${scale > MIN_SCALE ? ' is-zoomed' : ''}${dragging ? ' is-dragging' : ''}`}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onDoubleClick={() => act(scale > MIN_SCALE ? 'resetZoom' : 'zoomIn')}
        >
          <img
            key={img.url}
            className="image-viewer__img"
            src={srcOf(img, 1280)}
            srcSet={srcSet}
            sizes={srcSet ? '100vw' : undefined}
            width={img.width || undefined}
            height={img.height || undefined}
            alt={img.alt}
            draggable={false}
            style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${scale})` }}
          />
        </div>
        {count > 1 && (
          <>
            <button
              type="button"
              className="image-viewer__nav image-viewer__nav--prev"
              onClick={() => act('prev')}
              disabled={atFirst}
              aria-label="Previous image"
            >
              <ChevronLeftIcon size={28} />
            </button>
            <button
              type="button"
              className="image-viewer__nav image-viewer__nav--next"
              onClick={() => act('next')}
              disabled={atLast}
              aria-label="Next image"
            >
              <ChevronRightIcon size={28} />
            </button>
          </>
        )}
        {img.alt && (
          <p id={captionId} className="image-viewer__caption">
            {img.alt}
          </p>
        )}
      </div>
    </div>,
    document.body,
  );
}
