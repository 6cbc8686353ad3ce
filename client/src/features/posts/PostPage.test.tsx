// Issue 31: a moderator who opens, from the queue, a post hidden from
// everyone else (removed, or its author suspended) is told so above it; a
// post anyone may read carries no such note.
import { cleanup, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { PostPage } from './PostPage';

const post = {
  id: 'p1',
  content: 'buy now',
  images: [],
  visibility: 'public',
  likesCount: 0,
  isLiked: false,
  commentsCount: 0,
  countsVersion: 1,
  author: { id: 'u2', name: 'Spammy Sam', avatar: { url: '' }, role: 'student' },
  createdAt: '2026-11-27T10:00:00Z',
  updatedAt: '2026-11-27T10:00:00Z',
  group: null,
};

function renderWith(detail: Record<string, unknown>) {
  installFakeFetch({ '/api/posts/p1': () => json({ status: 'success', data: { post, comments: [], nextCursor: null, ...detail } }) });
  localStorage.setItem('campus.token', 'tok');
  render(
    <Provider store={createStore()}>
      <PostPage postId="p1" />
    </Provider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => cleanup());

describe('post page for a moderator', () => {
  it('says why a post is hidden from everyone else', async () => {
    renderWith({ moderation: { removed: false, authorSuspended: true } });
    expect((await screen.findByRole('status')).textContent).toBe('Only moderators see this post: its author is suspended.');
    expect(screen.getByText('buy now')).toBeTruthy();
  });

  it('says nothing of a post anyone may read', async () => {
    renderWith({});
    await screen.findByText('buy now');
    expect(screen.queryByText(/Only moderators see this post/)).toBeNull();
  });
});
