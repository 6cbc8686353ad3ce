// Small additions to a notification row (issue 16 #5): which post it is
// about, and Accept right on a friend request.

import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { acceptRequestAtom, loadRequestsAtom, receivedRequestsAtom } from '../friends/friendsAtoms';
import { friendErrorMessage } from '../friends/friendsApi';
import { fetchPost } from '../posts/postsApi';
import { postAtom, upsertPostsAtom } from '../posts/postsAtoms';
import { showToastAtom } from '../../ui/toast';

export const POST_HINT_CHARS = 60;

/** The first words of a post, to tell twelve "liked your post" rows apart. */
export function postHint(content: string, images: number): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text === '') return images > 0 ? 'your photo' : '';
  return text.length > POST_HINT_CHARS ? `“${text.slice(0, POST_HINT_CHARS).trimEnd()}…”` : `“${text}”`;
}

// Posts already asked for, so a list of notifications on one post fetches it once.
const requested = new Set<string>();

/** "“First words of the post…”" under a like or comment notification. */
export function PostHint({ postId }: { postId: string }) {
  const post = useAtomValue(postAtom(postId));
  const upsert = useSetAtom(upsertPostsAtom);
  useEffect(() => {
    if (post || !postId || requested.has(postId)) return;
    requested.add(postId);
    fetchPost(postId)
      .then(({ post: p }) => upsert([p]))
      .catch(() => {
        // deleted or unreachable: no hint
      });
  }, [post, postId, upsert]);
  const hint = post ? postHint(post.content, post.images.length) : '';
  if (!hint) return null;
  return <span className="notification__hint">{hint}</span>;
}

/** Accept on a friend-request notification: finds the pending request from that sender. */
export function AcceptRequestButton({ senderId }: { senderId: string }) {
  const received = useAtomValue(receivedRequestsAtom);
  const loadRequests = useSetAtom(loadRequestsAtom);
  const accept = useSetAtom(acceptRequestAtom);
  const toast = useSetAtom(showToastAtom);
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');

  useEffect(() => {
    if (received === null) void loadRequests();
  }, [received, loadRequests]);

  const request = received?.find((r) => r.sender.id === senderId);
  if (state === 'done') {
    return (
      <span className="notification__accepted" role="status">
        Accepted
      </span>
    );
  }
  if (!request) return null; // already answered (or not loaded yet)

  const onAccept = async () => {
    setState('busy');
    try {
      await accept(request);
      setState('done');
    } catch (err) {
      setState('idle');
      toast({ message: friendErrorMessage(err, 'Failed to accept friend request'), tone: 'error', ms: 4000 });
    }
  };

  return (
    <button type="button" className="button button--primary button--sm notification__accept" disabled={state === 'busy'} onClick={() => void onAccept()}>
      {state === 'busy' ? 'Accepting…' : 'Accept'}
    </button>
  );
}
