// Issue 27: the mention typeahead in a composer — @ and a letter open the
// list, arrows choose, Enter or Tab insert, Escape closes only the list, and
// the field's own keys (Enter sends a comment) work while it is closed.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { normalizeSuggestions, suggestionLine } from './mentionsApi';
import { MentionTextarea } from './MentionTextarea';

const people = [
  { id: 'u2', name: 'Bikram Sen', handle: 'bikramsen', avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/22/2', relation: 'friend' },
  { id: 'u3', name: 'Bina Das', handle: 'binadas', avatar: { url: '' }, role: 'student', universityId: 'BWU/BCA/22/3', relation: 'batch' },
  { id: 'u4', name: 'Biju Roy', handle: 'bijuroy', avatar: { url: '' }, role: 'faculty', universityId: '', relation: '' },
];

function Field({ onKey, initial = '' }: { onKey?: (key: string) => void; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="f">Write</label>
      <MentionTextarea id="f" value={value} onValueChange={setValue} onKeyDown={(e) => onKey?.(e.key)} />
    </>
  );
}

function setup(onKey?: (key: string) => void) {
  const asked: string[] = [];
  installFakeFetch({
    '/api/users/suggest': (_init, url) => {
      asked.push(url.searchParams.get('q') ?? '');
      return json({ status: 'success', data: { users: people } });
    },
  });
  localStorage.setItem('campus.token', 'tok');
  render(<Field onKey={onKey} />);
  const field = screen.getByLabelText('Write') as HTMLTextAreaElement;
  field.focus();
  return { field, asked };
}

function type(field: HTMLTextAreaElement, text: string) {
  fireEvent.change(field, { target: { value: text, selectionStart: text.length, selectionEnd: text.length } });
}

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('MentionTextarea', () => {
  it('offers people for @ and a letter, and Enter inserts the chosen one', async () => {
    const keys: string[] = [];
    const { field, asked } = setup((k) => keys.push(k));
    type(field, 'hello @bi');
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    expect(asked).toEqual(['bi']);
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Bikram Sen@bikramsen · Friend',
      'Bina Das@binadas · Your batch',
      'Biju Roy@bijuroy · Faculty',
    ]);
    expect(field.getAttribute('aria-controls')).toBe(list.id);
    expect(field.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');

    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(field.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    expect(field.getAttribute('aria-activedescendant')).toBe(options[2]!.id); // wraps

    fireEvent.keyDown(field, { key: 'Enter' });
    expect(field.value).toBe('hello @bijuroy ');
    expect(field.selectionStart).toBe('hello @bijuroy '.length);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field.hasAttribute('aria-activedescendant')).toBe(false);
    // The composer never saw the keys the list took.
    expect(keys).toEqual([]);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(keys).toEqual(['Enter']);
  });

  it('Tab inserts too, and a click on an option', async () => {
    const { field } = setup();
    type(field, '@bi');
    await screen.findByRole('listbox');
    fireEvent.keyDown(field, { key: 'Tab' });
    expect(field.value).toBe('@bikramsen ');
    type(field, '@bikramsen @bi');
    const options = await screen.findAllByRole('option');
    fireEvent.mouseDown(options[1]!);
    fireEvent.click(options[1]!);
    expect(field.value).toBe('@bikramsen @binadas ');
  });

  it('Escape closes the list and only the list; the keys go to the field again', async () => {
    const keys: string[] = [];
    const { field } = setup((k) => keys.push(k));
    const outer = vi.fn();
    document.addEventListener('keydown', outer);
    type(field, 'hi @bi');
    await screen.findByRole('listbox');
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(outer).not.toHaveBeenCalled(); // a dialog around stays open
    // Typing on in the same mention keeps it closed.
    type(field, 'hi @bik');
    await act(async () => new Promise((r) => setTimeout(r, 250)));
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(keys).toEqual(['Enter']);
    document.removeEventListener('keydown', outer);
  });

  it('nothing is offered outside a mention, and leaving the field closes the list', async () => {
    const { field, asked } = setup();
    type(field, 'mail asha@bi');
    await act(async () => new Promise((r) => setTimeout(r, 250)));
    expect(asked).toEqual([]);
    type(field, '@bi');
    await screen.findByRole('listbox');
    fireEvent.blur(field);
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
  });
});

describe('suggestions', () => {
  it('keep only people with an id and a handle, and say how they relate', () => {
    const list = normalizeSuggestions({ users: [...people, { id: 'x' }, { handle: 'nobody' }] });
    expect(list.map((s) => s.handle)).toEqual(['bikramsen', 'binadas', 'bijuroy']);
    expect(list.map(suggestionLine)).toEqual(['Friend', 'Your batch', 'Faculty']);
    expect(suggestionLine({ ...list[1]!, relation: '' })).toBe('BWU/BCA/22/3');
  });
});
