import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar, avatarSrcSet, hueIndex, initialsOf } from './Avatar';
import { Modal, tabbables } from './Modal';
import { filledCode, OtpInput, toBoxes } from './OtpInput';
import { nearEnd, pullDistance, shouldRefresh } from './PullToRefresh';

afterEach(cleanup);

describe('Avatar', () => {
  it('draws initials when there is no url', () => {
    expect(initialsOf('Asha Rao')).toBe('AR');
    expect(initialsOf('asha mary rao')).toBe('AR');
    expect(initialsOf('Asha')).toBe('A');
    expect(initialsOf('  ')).toBe('U');
    expect(hueIndex('Asha Rao')).toBe(hueIndex('Asha Rao'));
    render(<Avatar name="Asha Rao" url="" />);
    const el = screen.getByRole('img', { name: 'Asha Rao' });
    expect(el.querySelector('[data-initials]')!.getAttribute('data-initials')).toBe('AR');
    expect(el.textContent).toBe(''); // no text node: see Avatar
    expect(el.style.width).toBe('40px');
  });

  it('shows the picture, and initials if it fails to load', () => {
    render(<Avatar name="Asha Rao" url="/media/a.png" size={32} />);
    const el = screen.getByRole('img', { name: 'Asha Rao' });
    const img = el.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/media/a.png');
    expect(el.style.width).toBe('32px');
    fireEvent.error(img);
    expect(el.querySelector('[data-initials]')!.getAttribute('data-initials')).toBe('AR');
  });

  it("offers the server's copies in srcset, sized to the avatar, so a 40 px one loads the 96 px copy", () => {
    const variants = [
      { url: '/media/a-96.jpg', width: 96, height: 96 },
      { url: '/media/a-320.jpg', width: 320, height: 320 },
    ];
    render(<Avatar name="Asha Rao" url="/media/a-96.jpg" variants={variants} />);
    const img = screen.getByRole('img', { name: 'Asha Rao' }).querySelector('img')!;
    expect(img.getAttribute('srcset')).toBe('/media/a-96.jpg 96w, /media/a-320.jpg 320w');
    expect(img.getAttribute('sizes')).toBe('40px');
    expect(avatarSrcSet(undefined)).toBeUndefined();
    expect(avatarSrcSet([])).toBeUndefined();
  });
});

function OtpHarness() {
  const [v, setV] = useState('');
  return (
    <>
      <OtpInput value={v} onChange={setV} />
      <output data-testid="value">{v}</output>
    </>
  );
}

describe('OtpInput', () => {
  it('takes digits only, advances, and moves back on Backspace in an empty box', () => {
    render(<OtpHarness />);
    const boxes = screen.getAllByRole('textbox') as HTMLInputElement[];
    expect(boxes).toHaveLength(6);
    fireEvent.change(boxes[0]!, { target: { value: 'a' } });
    expect(screen.getByTestId('value').textContent).toBe('');
    fireEvent.change(boxes[0]!, { target: { value: '4' } });
    expect(document.activeElement).toBe(boxes[1]);
    fireEvent.change(boxes[1]!, { target: { value: '2' } });
    expect(screen.getByTestId('value').textContent).toBe('42');
    act(() => boxes[2]!.focus());
    fireEvent.keyDown(boxes[2]!, { key: 'Backspace' });
    expect(screen.getByTestId('value').textContent).toBe('4');
    expect(document.activeElement).toBe(boxes[1]);
  });

  it('fills every box from a pasted code', () => {
    render(<OtpHarness />);
    const boxes = screen.getAllByRole('textbox') as HTMLInputElement[];
    fireEvent.paste(boxes[0]!, { clipboardData: { getData: () => '12-34 56' } });
    expect(screen.getByTestId('value').textContent).toBe('123456');
    expect(filledCode('123456')).toBe('123456');
    expect(filledCode('12 456')).toBe('');
    expect(toBoxes('12')).toEqual(['1', '2', ' ', ' ', ' ', ' ']);
  });
});

describe('pull to refresh', () => {
  it('threshold 67, maximum 95, fetch-more within 100 px', () => {
    expect(pullDistance(100)).toBe(50);
    expect(pullDistance(1000)).toBe(95);
    expect(shouldRefresh(66)).toBe(false);
    expect(shouldRefresh(67)).toBe(true);
    expect(nearEnd(900, 800, 1800)).toBe(true); // exactly 100 px left
    expect(nearEnd(899, 800, 1800)).toBe(false); // 101 px left
    expect(nearEnd(0, 800, 2000)).toBe(false);
  });
});

describe('Modal focus trap (issue 16 #7)', () => {
  it('wraps Tab past a tabindex=-1 file input, and brings strayed focus back', () => {
    render(
      <Modal open onClose={() => {}} title="Create post">
        <textarea aria-label="Text" />
        <label htmlFor="f">Photo</label>
        <button type="button">Post</button>
        <input id="f" type="file" className="visually-hidden" tabIndex={-1} />
      </Modal>,
    );
    const dialog = screen.getByRole('dialog');
    const close = screen.getByRole('button', { name: 'Close' });
    const post = screen.getByRole('button', { name: 'Post' });
    expect(tabbables(dialog)).toEqual([close, screen.getByLabelText('Text'), post]);
    post.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(post);
  });
});
