// The windowed list: which row a scroll offset falls in, and that only the
// rows near the end are in the DOM however many there are.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { rowAt, VirtualList } from './VirtualList';

afterEach(cleanup);

describe('VirtualList', () => {
  it('finds the row at an offset', () => {
    const offsets = [0, 10, 30, 60, 100];
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 9)).toBe(0);
    expect(rowAt(offsets, 10)).toBe(1);
    expect(rowAt(offsets, 59)).toBe(2);
    expect(rowAt(offsets, 99)).toBe(3);
    expect(rowAt(offsets, 500)).toBe(3);
    expect(rowAt([0], 5)).toBe(0);
  });

  it('renders a window at the end of 10,000 rows, padded to their height', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => i);
    const { container } = render(
      <VirtualList items={items} itemKey={(i) => String(i)} estimate={50} overscan={500} renderItem={(i) => <p>row {i}</p>} />,
    );
    const rows = container.querySelectorAll('[data-vl-key]');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(20);
    expect(rows[rows.length - 1]?.textContent).toBe('row 9999');
    const pad = rows[0]!.parentElement as HTMLElement;
    expect(parseFloat(pad.style.paddingTop) + rows.length * 50).toBe(500_000);
  });
});
