import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useReducer, useState } from 'react';
import type { UserSummary } from '../../api/models';
import { CheckIcon, HeartIcon, PlusUserIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { showToastAtom } from '../../ui/toast';
import {
  checkFriend,
  friendErrorMessage,
  MSG_REMOVE_FRIEND_FAILED,
  MSG_SEND_REQUEST_FAILED,
} from '../friends/friendsApi';
import { acceptRequestByIdAtom, friendshipVersionAtom, sendRequestAtom, unfriendAtom } from '../friends/friendsAtoms';
import { connectAction, connectLabel, connectReducer, isBusy } from './connectState';
import { adjustProfileFriendsCountAtom, profileLikeAtom, reloadProfileFriendsAtom, toggleProfileLikeAtom } from './profileAtoms';

/** docs/product.md §4 Connect button, on another user's profile. */
export function ConnectButton({ user }: { user: UserSummary }) {
  const [state, dispatch] = useReducer(connectReducer, 'connect');
  const [requestId, setRequestId] = useState('');
  const [confirmUnfriend, setConfirmUnfriend] = useState(false);
  const version = useAtomValue(friendshipVersionAtom);
  const send = useSetAtom(sendRequestAtom);
  const removeFriend = useSetAtom(unfriendAtom);
  const accept = useSetAtom(acceptRequestByIdAtom);
  const reloadFriends = useSetAtom(reloadProfileFriendsAtom);
  const adjustFriends = useSetAtom(adjustProfileFriendsCountAtom);
  const toast = useSetAtom(showToastAtom);

  // On load, and whenever friendships change (a live accept, an action elsewhere).
  useEffect(() => {
    const controller = new AbortController();
    void checkFriend(user.id, controller.signal).then((c) => {
      if (controller.signal.aborted) return;
      setRequestId(c.requestId);
      dispatch({ type: 'loaded', isFriend: c.isFriend, requestSent: c.requestSent, requestReceived: c.requestReceived });
    });
    return () => controller.abort();
  }, [user.id, version]);

  const doSend = async () => {
    dispatch({ type: 'sendStart' });
    try {
      const req = await send(user);
      const accepted = req.status === 'accepted';
      dispatch({ type: 'sendDone', accepted });
      if (accepted) adjustFriends(1);
    } catch (err) {
      dispatch({ type: 'sendFailed' });
      toast({ message: friendErrorMessage(err, MSG_SEND_REQUEST_FAILED), tone: 'error' });
    }
  };

  const doUnfriend = async () => {
    setConfirmUnfriend(false);
    dispatch({ type: 'removeStart' });
    try {
      await removeFriend(user.id);
      dispatch({ type: 'removeDone' });
      // docs/product.md §4: the friend action unfriends, then refreshes the friend list.
      await reloadFriends();
    } catch (err) {
      dispatch({ type: 'removeFailed' });
      toast({ message: friendErrorMessage(err, MSG_REMOVE_FRIEND_FAILED), tone: 'error' });
    }
  };

  const doAccept = async () => {
    dispatch({ type: 'acceptStart' });
    try {
      await accept(requestId);
      dispatch({ type: 'acceptDone' });
      adjustFriends(1);
    } catch (err) {
      dispatch({ type: 'acceptFailed' });
      toast({ message: friendErrorMessage(err, 'Failed to accept friend request'), tone: 'error' });
    }
  };

  const action = connectAction(state);
  const onClick = () => {
    if (action === 'send') void doSend();
    else if (action === 'unfriend') setConfirmUnfriend(true);
    else if (action === 'accept' && requestId) void doAccept();
  };
  const connected = state === 'connected';

  return (
    <>
      <button
        type="button"
        className={`button ${connected || state === 'sent' ? 'button--secondary' : 'button--primary'} profile-connect`}
        onClick={onClick}
        disabled={action === null || isBusy(state)}
        aria-busy={isBusy(state)}
        title={connected ? 'Click to unfriend' : undefined}
        data-state={state}
      >
        {connected || state === 'sent' ? <CheckIcon size={18} /> : <PlusUserIcon size={18} />}
        {connectLabel(state)}
      </button>
      <Modal open={confirmUnfriend} onClose={() => setConfirmUnfriend(false)} title={`Unfriend ${user.name}?`} size="sm">
        <p className="muted">You will no longer be friends. You can send a new request any time.</p>
        <div className="profile-confirm">
          <button type="button" className="button button--secondary" onClick={() => setConfirmUnfriend(false)}>
            Cancel
          </button>
          <button type="button" className="button button--danger" onClick={() => void doUnfriend()} data-autofocus>
            Unfriend
          </button>
        </div>
      </Modal>
    </>
  );
}

/** docs/product.md §4 Profile like: optimistic count, failures ignored. */
export function ProfileLikeButton({ name }: { name: string }) {
  const like = useAtomValue(profileLikeAtom);
  const toggle = useSetAtom(toggleProfileLikeAtom);
  return (
    <button
      type="button"
      className={`button button--secondary profile-like${like.liked ? ' is-liked' : ''}`}
      aria-pressed={like.liked}
      aria-label={`${like.liked ? 'Unlike' : 'Like'} ${name}'s profile`}
      onClick={() => void toggle()}
    >
      <HeartIcon size={18} filled={like.liked} />
      {like.liked ? 'Liked' : 'Like'}
    </button>
  );
}
