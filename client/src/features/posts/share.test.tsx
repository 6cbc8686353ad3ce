import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShareButton } from './ShareButton';
import { sharePost, sharePreview, shareData } from './share';
import { makePost } from './testPosts';

const origin = 'https://campus.example.edu';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

function stubNavigator(props: Record<string, unknown>) {
  for (const [k, v] of Object.entries(props)) {
    Object.defineProperty(navigator, k, { value: v, configurable: true, writable: true });
  }
}

function unstubNavigator(...keys: string[]) {
  for (const k of keys) Object.defineProperty(navigator, k, { value: undefined, configurable: true, writable: true });
}

describe('share data (docs/product.md §4 Share)', () => {
  it('titles the share and cuts the text at 100 characters with ...', () => {
    const long = 'x'.repeat(150);
    expect(sharePreview(long)).toBe(`${'x'.repeat(100)}...`);
    expect(sharePreview('short')).toBe('short');
    expect(sharePreview('y'.repeat(100))).toBe('y'.repeat(100));
    expect(shareData(makePost({ id: 'abc', content: 'Hello' }), origin)).toEqual({
      title: 'Post by Asha Rao',
      text: 'Hello',
      url: 'https://campus.example.edu/post/abc',
    });
  });
});

describe('sharePost', () => {
  afterEach(() => unstubNavigator('share', 'clipboard'));

  it('uses the device share when there is one', async () => {
    const share = vi.fn(async () => {});
    const writeText = vi.fn(async () => {});
    stubNavigator({ share, clipboard: { writeText } });
    await expect(sharePost(makePost({ id: 'p9', content: 'z'.repeat(120) }), origin)).resolves.toBe('shared');
    expect(share).toHaveBeenCalledWith({ title: 'Post by Asha Rao', text: `${'z'.repeat(100)}...`, url: `${origin}/post/p9` });
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link when sharing is unavailable', async () => {
    const writeText = vi.fn(async () => {});
    unstubNavigator('share');
    stubNavigator({ clipboard: { writeText } });
    await expect(sharePost(makePost({ id: 'p9' }), origin)).resolves.toBe('copied');
    expect(writeText).toHaveBeenCalledWith(`${origin}/post/p9`);
  });

  it('copies the link when sharing fails', async () => {
    const writeText = vi.fn(async () => {});
    stubNavigator({ share: vi.fn(async () => Promise.reject(new Error('NotAllowed'))), clipboard: { writeText } });
    await expect(sharePost(makePost({ id: 'p9' }), origin)).resolves.toBe('copied');
    expect(writeText).toHaveBeenCalledWith(`${origin}/post/p9`);
  });

  it('does nothing more when the user dismisses the share sheet', async () => {
    const writeText = vi.fn(async () => {});
    stubNavigator({ share: vi.fn(async () => Promise.reject(new DOMException('cancel', 'AbortError'))), clipboard: { writeText } });
    await expect(sharePost(makePost(), origin)).resolves.toBe('cancelled');
    expect(writeText).not.toHaveBeenCalled();
  });
});

describe('ShareButton', () => {
  afterEach(() => unstubNavigator('share', 'clipboard'));

  it("reads 'Copied!' with the tooltip for 2 s, then reverts", async () => {
    vi.useFakeTimers();
    unstubNavigator('share');
    stubNavigator({ clipboard: { writeText: vi.fn(async () => {}) } });
    render(<ShareButton post={makePost()} />);
    await act(async () => {
      screen.getByRole('button', { name: 'Share' }).click();
    });
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    expect(screen.getByRole('tooltip').textContent).toBe('Link copied to clipboard!');
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByRole('button', { name: 'Copied!' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Share' })).toBeTruthy();
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
