import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { srcOf, srcSetOf } from '../lib/srcset';
import { ImageViewer, type ViewerImage } from './ImageViewer';
import {
  clampPan,
  clampScale,
  keyAction,
  MAX_SCALE,
  MIN_SCALE,
  navigate,
  pinchScale,
  swipeAction,
  zoom,
  type ViewerAction,
} from './imageViewerLogic';

afterEach(cleanup);

describe('viewer keys', () => {
  it.each([
    ['ArrowLeft', 'prev'],
    ['ArrowRight', 'next'],
    ['Home', 'first'],
    ['End', 'last'],
    ['Escape', 'close'],
    ['+', 'zoomIn'],
    ['=', 'zoomIn'],
    ['-', 'zoomOut'],
    ['0', 'resetZoom'],
    ['Tab', null],
    ['Enter', null],
    [' ', null],
    ['a', null],
  ] as const)('%s → %s', (key, want) => {
    expect(keyAction(key)).toBe(want);
  });
});

describe('navigate', () => {
  it.each([
    [0, 3, 'next', 1],
    [1, 3, 'next', 2],
    [2, 3, 'next', 2], // stops at the last
    [2, 3, 'prev', 1],
    [0, 3, 'prev', 0], // stops at the first
    [1, 3, 'first', 0],
    [0, 3, 'last', 2],
    [0, 1, 'next', 0],
    [5, 3, 'resetZoom', 2], // an index past the end is brought back
    [-1, 3, 'resetZoom', 0],
    [0, 0, 'next', 0],
  ] as [number, number, ViewerAction, number][])('%i of %i, %s → %i', (i, count, action, want) => {
    expect(navigate(i, count, action)).toBe(want);
  });
});

describe('zoom and gestures', () => {
  it('zooms in steps within the limits', () => {
    expect(zoom(1, 'zoomIn')).toBe(1.5);
    expect(zoom(MAX_SCALE, 'zoomIn')).toBe(MAX_SCALE);
    expect(zoom(1, 'zoomOut')).toBe(MIN_SCALE);
    expect(zoom(3, 'resetZoom')).toBe(MIN_SCALE);
    expect(zoom(2, 'next')).toBe(2);
    expect(clampScale(Number.NaN)).toBe(MIN_SCALE);
  });
  it('pinches by the ratio of the fingers’ distance', () => {
    expect(pinchScale(1, 100, 200)).toBe(2);
    expect(pinchScale(2, 100, 50)).toBe(1);
    expect(pinchScale(1, 100, 1000)).toBe(MAX_SCALE);
    expect(pinchScale(1, 100, 10)).toBe(MIN_SCALE);
    expect(pinchScale(1.5, 0, 100)).toBe(1.5);
  });
  it.each([
    [-80, 5, 'next'],
    [80, -5, 'prev'],
    [-30, 0, null], // too short
    [-60, 90, null], // mostly vertical
  ] as const)('a swipe of %i, %i → %s', (dx, dy, want) => {
    expect(swipeAction(dx, dy)).toBe(want);
  });
  it('pans no further than the zoomed image overhangs', () => {
    expect(clampPan(500, -500, 2, 400, 300)).toEqual({ x: 200, y: -150 });
    expect(clampPan(10, 10, 1, 400, 300)).toEqual({ x: 0, y: 0 });
  });
});

describe('srcset', () => {
  const img = {
    url: '/media/a.jpg',
    width: 4000,
    height: 3000,
    variants: [
      { url: '/media/a-320.jpg', width: 320, height: 240 },
      { url: '/media/a-1280.jpg', width: 1280, height: 960 },
    ],
  };
  it('lists the copies and the original by width', () => {
    expect(srcSetOf(img)).toBe('/media/a-320.jpg 320w, /media/a-1280.jpg 1280w, /media/a.jpg 4000w');
    expect(srcOf(img, 1280)).toBe('/media/a-1280.jpg');
    expect(srcOf(img, 320)).toBe('/media/a-320.jpg');
  });
  it('has none for an image without copies or without a known size', () => {
    expect(srcSetOf({ ...img, variants: [] })).toBeUndefined();
    expect(srcSetOf({ ...img, width: 0 })).toBeUndefined();
    expect(srcOf({ ...img, variants: [] }, 1280)).toBe('/media/a.jpg');
  });
});

const images: ViewerImage[] = [
  { url: '/media/1.jpg', width: 800, height: 600, variants: [], alt: 'The quad at noon' },
  { url: '/media/2.jpg', width: 800, height: 600, variants: [], alt: 'The library steps' },
  { url: '/media/3.jpg', width: 800, height: 600, variants: [], alt: 'A chart of attendance' },
];

function Harness({ start = 0 }: { start?: number }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen(start)}>
        Open image
      </button>
      <button type="button">Elsewhere</button>
      {open !== null && <ImageViewer images={images} index={open} label="Images shared by Asha" onClose={() => setOpen(null)} />}
    </>
  );
}

describe('ImageViewer', () => {
  it('steps with the arrows, closes on Escape and gives focus back to its opener', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open image' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Images shared by Asha, image 1 of 3' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('img', { name: 'The quad at noon' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close image viewer' }));

    fireEvent.keyDown(document, { key: 'ArrowRight' });
    expect(screen.getByRole('img', { name: 'The library steps' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'End' });
    expect(screen.getByRole('img', { name: 'A chart of attendance' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next image' }).hasAttribute('disabled')).toBe(true);
    fireEvent.keyDown(document, { key: 'ArrowLeft' });
    expect(screen.getByRole('dialog', { name: 'Images shared by Asha, image 2 of 3' })).toBeTruthy();

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps Tab inside: from the last control to the first and back', () => {
    render(<Harness start={1} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open image' }));
    // In order: Zoom in, Close, Previous, Next (Zoom out is disabled at 1×).
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    const next = screen.getByRole('button', { name: 'Next image' });
    next.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(zoomIn);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(next);
    // Focus somewhere outside (it should not be, but) comes back in.
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(zoomIn);
  });

  it('zooms with + and resets with 0', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open image' }));
    const img = screen.getByRole('img', { name: 'The quad at noon' });
    expect(img.style.transform).toContain('scale(1)');
    fireEvent.keyDown(document, { key: '+' });
    expect(img.style.transform).toContain('scale(1.5)');
    expect(screen.getByRole('button', { name: 'Zoom out' }).hasAttribute('disabled')).toBe(false);
    fireEvent.keyDown(document, { key: '0' });
    expect(img.style.transform).toContain('scale(1)');
  });

  it('swipes to the next and previous image, and a pinch zooms instead of swiping', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open image' }));
    const stage = document.querySelector('.image-viewer__stage')!;
    const swipe = (from: number, to: number) => {
      fireEvent.pointerDown(stage, { pointerId: 1, pointerType: 'touch', clientX: from, clientY: 300 });
      fireEvent.pointerMove(stage, { pointerId: 1, pointerType: 'touch', clientX: (from + to) / 2, clientY: 302 });
      fireEvent.pointerUp(stage, { pointerId: 1, pointerType: 'touch', clientX: to, clientY: 305 });
    };
    swipe(300, 100);
    expect(screen.getByRole('img', { name: 'The library steps' })).toBeTruthy();
    swipe(100, 320);
    expect(screen.getByRole('img', { name: 'The quad at noon' })).toBeTruthy();
    swipe(300, 280); // too short: stays
    expect(screen.getByRole('img', { name: 'The quad at noon' })).toBeTruthy();

    // Two fingers spreading from 100 px apart to 200: 2×, and no swipe when they lift.
    fireEvent.pointerDown(stage, { pointerId: 1, pointerType: 'touch', clientX: 200, clientY: 300 });
    fireEvent.pointerDown(stage, { pointerId: 2, pointerType: 'touch', clientX: 300, clientY: 300 });
    fireEvent.pointerMove(stage, { pointerId: 2, pointerType: 'touch', clientX: 400, clientY: 300 });
    const img = screen.getByRole('img', { name: 'The quad at noon' });
    expect(img.style.transform).toContain('scale(2)');
    fireEvent.pointerUp(stage, { pointerId: 2, pointerType: 'touch', clientX: 400, clientY: 300 });
    fireEvent.pointerUp(stage, { pointerId: 1, pointerType: 'touch', clientX: 20, clientY: 300 });
    expect(screen.getByRole('img', { name: 'The quad at noon' })).toBeTruthy();
  });
});
