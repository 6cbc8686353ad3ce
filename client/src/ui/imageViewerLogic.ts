// The image viewer's decisions, apart from React so they can be tested
// alone: what a key does, where a step or a swipe leads, how far a pinch
// zooms.

export type ViewerAction = 'prev' | 'next' | 'first' | 'last' | 'close' | 'zoomIn' | 'zoomOut' | 'resetZoom';

export const MIN_SCALE = 1;
export const MAX_SCALE = 4;
/** How much one press of +/− (or a zoom button) changes the scale. */
export const ZOOM_STEP = 0.5;
/** A horizontal move shorter than this is not a swipe (CSS pixels). */
export const SWIPE_MIN = 50;

/** What a key pressed in the viewer does; null: leave it alone (Tab, Enter on a button…). */
export function keyAction(key: string): ViewerAction | null {
  switch (key) {
    case 'ArrowLeft':
      return 'prev';
    case 'ArrowRight':
      return 'next';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Escape':
      return 'close';
    case '+':
    case '=':
      return 'zoomIn';
    case '-':
      return 'zoomOut';
    case '0':
      return 'resetZoom';
    default:
      return null;
  }
}

/** The index after a navigation action; it stops at the ends (no wrap, as Mastodon's and Bluesky's viewers). */
export function navigate(index: number, count: number, action: ViewerAction): number {
  if (count <= 0) return 0;
  const last = count - 1;
  switch (action) {
    case 'prev':
      return Math.max(0, index - 1);
    case 'next':
      return Math.min(last, index + 1);
    case 'first':
      return 0;
    case 'last':
      return last;
    default:
      return Math.min(Math.max(0, index), last);
  }
}

export function clampScale(s: number): number {
  if (!Number.isFinite(s)) return MIN_SCALE;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
}

/** The scale after a zoom action. */
export function zoom(scale: number, action: ViewerAction): number {
  switch (action) {
    case 'zoomIn':
      return clampScale(scale + ZOOM_STEP);
    case 'zoomOut':
      return clampScale(scale - ZOOM_STEP);
    case 'resetZoom':
      return MIN_SCALE;
    default:
      return scale;
  }
}

/** A pinch: the scale at its start times how far the fingers spread since. */
export function pinchScale(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampScale(startScale);
  return clampScale(startScale * (distance / startDistance));
}

/**
 * A finished one-finger move at scale 1: mostly sideways and long enough is a
 * swipe, to the next image when it went left.
 */
export function swipeAction(dx: number, dy: number): 'prev' | 'next' | null {
  if (Math.abs(dx) < SWIPE_MIN || Math.abs(dx) <= Math.abs(dy)) return null;
  return dx < 0 ? 'next' : 'prev';
}

/** Keeps a pan within what the zoomed image overhangs its box on each side. */
export function clampPan(x: number, y: number, scale: number, width: number, height: number): { x: number; y: number } {
  const maxX = ((scale - 1) * width) / 2;
  const maxY = ((scale - 1) * height) / 2;
  return { x: Math.min(maxX, Math.max(-maxX, x)), y: Math.min(maxY, Math.max(-maxY, y)) };
}

export function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
