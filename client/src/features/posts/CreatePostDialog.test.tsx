import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { installFakeXhr } from '../../test/fakeXhr';
import { CreatePostDialog } from './CreatePostDialog';
import { createdPostIdsAtom } from './postsAtoms';

const me = { id: 'u1', name: 'Asha Rao', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };

function img(name: string, type = 'image/png', size = 100): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

function renderDialog(user: Record<string, unknown> = me) {
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ user }));
  const store = createStore();
  const onClose = vi.fn();
  render(
    <Provider store={store}>
      <CreatePostDialog open onClose={onClose} />
    </Provider>,
  );
  return { store, onClose };
}

function pick(...files: File[]) {
  const input = screen.getByTestId('post-images-input');
  fireEvent.change(input, { target: { files } });
}

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('create-post dialog (docs/product.md §2.13)', () => {
  it('shows the author with university ID, a counter, and Post disabled when empty', () => {
    renderDialog();
    expect(screen.getByText('Asha Rao')).toBeTruthy();
    expect(screen.getByText('BWU/BCA/20/123')).toBeTruthy();
    expect(screen.getByText('0/2000')).toBeTruthy();
    const post = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement;
    expect(post.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Post text'), { target: { value: 'Hello' } });
    expect(screen.getByText('5/2000')).toBeTruthy();
    expect(post.disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Post text'), { target: { value: '   ' } });
    expect(post.disabled).toBe(true);
    expect((screen.getByLabelText('Post text') as HTMLTextAreaElement).maxLength).toBe(2000);
  });

  it("falls back to 'Student' without a university ID", () => {
    renderDialog({ ...me, universityId: '' });
    expect(screen.getByText('Student')).toBeTruthy();
  });

  it('takes up to 3 images, then disables adding with a tooltip', () => {
    renderDialog();
    pick(img('a.png'), img('b.png'));
    expect(screen.getAllByRole('img', { name: /Selected image/ })).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement).disabled).toBe(false);
    pick(img('c.png'), img('d.png'));
    expect(screen.getAllByRole('img', { name: /Selected image/ })).toHaveLength(3);
    expect(screen.getByRole('alert').textContent).toBe('You can upload a maximum of 3 images.');
    const add = screen.getByRole('button', { name: 'Add images' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    expect(screen.getByRole('tooltip').textContent).toBe('Maximum 3 images allowed');
    act(() => screen.getByRole('button', { name: 'Remove image 1' }).click());
    expect(add.disabled).toBe(false);
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull(); // issue 16 #9: the error goes with the extra file
  });

  it('refuses videos and large files with the spec messages', () => {
    renderDialog();
    pick(img('clip.mp4', 'video/mp4'));
    expect(screen.getByRole('alert').textContent).toBe('Please select only image files. Videos are not supported.');
    pick(img('huge.jpg', 'image/jpeg', 6 * 1024 * 1024));
    expect(screen.getByRole('alert').textContent).toBe('File size must be less than 5MB.');
    expect(screen.queryAllByRole('img', { name: /Selected image/ })).toHaveLength(0);
  });

  it('posts text as JSON and hands the post to the lists', async () => {
    let sent: unknown;
    installFakeFetch({
      '/api/posts': (init) => {
        sent = JSON.parse(String(init?.body));
        return json({ status: 'success', data: { post: { id: 'new1', content: 'Hello', author: me } } }, 201);
      },
    });
    const { store, onClose } = renderDialog();
    fireEvent.change(screen.getByLabelText('Post text'), { target: { value: '  Hello  ' } });
    await act(async () => screen.getByRole('button', { name: 'Post' }).click());
    expect(sent).toEqual({ content: 'Hello', visibility: 'public' });
    expect(store.get(createdPostIdsAtom)).toEqual(['new1']);
    expect(onClose).toHaveBeenCalled();
  });

  it('uploads images as multipart with a percentage and blocks closing meanwhile', async () => {
    const Xhr = installFakeXhr();
    const { onClose } = renderDialog();
    fireEvent.change(screen.getByLabelText('Post text'), { target: { value: 'Pics' } });
    pick(img('a.png'), img('b.png'));
    // Issue 16: a description per image, sent as imageAlts in the images' order ('' for none).
    fireEvent.change(screen.getByLabelText('Description of image 2 (alt text)'), { target: { value: '  A bar chart  ' } });
    expect((screen.getByLabelText('Description of image 1 (alt text)') as HTMLTextAreaElement).maxLength).toBe(1000);
    await act(async () => screen.getByRole('button', { name: 'Post' }).click());
    const xhr = Xhr.instances[0]!;
    const form = xhr.body as FormData;
    expect(form.get('content')).toBe('Pics');
    expect(form.get('visibility')).toBe('public');
    expect(form.getAll('images')).toHaveLength(2);
    expect(form.getAll('imageAlts')).toEqual(['', 'A bar chart']);
    act(() => xhr.progress(42, 100));
    expect(screen.getByText('Uploading… 42%')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => xhr.respond(201, { status: 'success', data: { post: { id: 'n2', content: 'Pics', author: me } } }));
    expect(onClose).toHaveBeenCalled();
  });

  it('retries network failures with the docs/product.md §8.3 messages, then gives up', async () => {
    vi.useFakeTimers();
    installFakeFetch({}); // every attempt fails to connect
    renderDialog();
    fireEvent.change(screen.getByLabelText('Post text'), { target: { value: 'Hello' } });
    await act(async () => screen.getByRole('button', { name: 'Post' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Upload failed. Retrying... (1/3)');
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByRole('alert').textContent).toBe('Upload failed. Retrying... (2/3)');
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByRole('alert').textContent).toBe('Upload failed. Retrying... (3/3)');
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByRole('alert').textContent).toBe('Failed to upload post after multiple attempts. Please try again later.');
    expect((screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a server error as it is', async () => {
    installFakeFetch({ '/api/posts': () => json({ status: 'error', message: 'Post is too long' }, 400) });
    renderDialog();
    fireEvent.change(screen.getByLabelText('Post text'), { target: { value: 'Hello' } });
    await act(async () => screen.getByRole('button', { name: 'Post' }).click());
    expect(screen.getByRole('alert').textContent).toBe('Post is too long');
  });
});
