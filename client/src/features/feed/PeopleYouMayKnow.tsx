import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { userSubtitle } from '../../api/models';
import { navigateAtom, presetFriendsTab } from '../../lib/navigation';
import { FEED_SUGGESTIONS } from '../../constants';
import { Avatar } from '../../ui/Avatar';
import { CheckIcon, PlusUserIcon } from '../../ui/icons';
import { afterPaint } from '../../lib/afterPaint';
import { Skeleton } from '../../ui/Skeleton';
import { acceptRequestAtom, loadRequestsAtom, receivedRequestsAtom } from '../friends/friendsAtoms';
import { fetchSuggestions, sendFriendRequest, suggestionReason, type Suggestion } from '../friends/friendsApi';

type SendState = 'sending' | 'sent' | 'friends';

/**
 * docs/product.md §2.12 right column: up to 3 suggestions, each with Add → disabled
 * 'Sent'. Someone who already asked me is offered Accept instead (issue 16
 * #4), and a request that makes friends at once says so.
 */
export function PeopleYouMayKnow() {
  const navigate = useSetAtom(navigateAtom);
  const received = useAtomValue(receivedRequestsAtom);
  const loadRequests = useSetAtom(loadRequestsAtom);
  const acceptRequest = useSetAtom(acceptRequestAtom);
  const [list, setList] = useState<Suggestion[] | null>(null);
  const [sent, setSent] = useState<Record<string, SendState>>({});

  useEffect(() => {
    const controller = new AbortController();
    const cancel = afterPaint(() =>
      fetchSuggestions(controller.signal)
        .then((s) => setList(s.slice(0, FEED_SUGGESTIONS)))
        .catch((err: unknown) => {
          if (controller.signal.aborted) return;
          console.error('Suggestions failed', err); // silent (docs/product.md §8.5)
          setList([]);
        }),
    );
    return () => {
      cancel();
      controller.abort();
    };
  }, []);

  useEffect(() => {
    if (received !== null) return;
    return afterPaint(() => void loadRequests().catch(() => {}));
  }, [received, loadRequests]);

  const add = async (id: string) => {
    setSent((s) => ({ ...s, [id]: 'sending' }));
    try {
      const incoming = received?.find((r) => r.sender.id === id);
      if (incoming) {
        await acceptRequest(incoming);
        setSent((s) => ({ ...s, [id]: 'friends' }));
        return;
      }
      const req = await sendFriendRequest(id);
      setSent((s) => ({ ...s, [id]: req.status === 'accepted' ? 'friends' : 'sent' }));
    } catch (err) {
      console.error('Friend request failed', err); // silent (docs/product.md §8.5)
      setSent((s) => {
        const next = { ...s };
        delete next[id];
        return next;
      });
    }
  };

  return (
    <section className="card people" aria-labelledby="people-title">
      <h2 id="people-title" className="side-title">
        People You May Know
      </h2>
      {list === null ? (
        <ul className="people__list" aria-hidden="true">
          {Array.from({ length: FEED_SUGGESTIONS }, (_, i) => (
            <li key={i} className="people__row">
              <Skeleton round width={40} height={40} />
              <Skeleton width="60%" height={12} />
            </li>
          ))}
        </ul>
      ) : list.length === 0 ? (
        <p className="muted people__empty">No suggestions right now.</p>
      ) : (
        <ul className="people__list">
          {list.map((s) => {
            const state = sent[s.user.id];
            const asked = received?.some((r) => r.sender.id === s.user.id) ?? false;
            return (
              <li key={s.user.id} className="people__row">
                <button type="button" className="people__who" onClick={() => navigate({ page: 'profile', userId: s.user.id })}>
                  <Avatar name={s.user.name} url={s.user.avatar.thumbUrl || s.user.avatar.url} variants={s.user.avatar.variants} />
                  <span className="people__text">
                    <span className="people__name">{s.user.name}</span>
                    {/* The same two lines as the find-people page: who, and why suggested. */}
                    <span className="people__sub">{userSubtitle(s.user)}</span>
                    {suggestionReason(s) && <span className="people__sub people__reason">{suggestionReason(s)}</span>}
                  </span>
                </button>
                <button
                  type="button"
                  className={`button button--sm ${state === 'sent' || state === 'friends' ? 'button--secondary' : 'button--primary'}`}
                  disabled={state !== undefined}
                  onClick={() => void add(s.user.id)}
                >
                  {state === 'sent' || state === 'friends' ? (
                    <>
                      <CheckIcon size={16} /> {state === 'sent' ? 'Sent' : 'Friends'}
                    </>
                  ) : (
                    <>
                      <PlusUserIcon size={16} /> {asked ? 'Accept' : 'Add'}
                    </>
                  )}
                  {/* The visible word first, so speech users can say what they see. */}
                  <span className="visually-hidden"> {s.user.name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <button
        type="button"
        className="link-button people__all"
        onClick={() => {
          presetFriendsTab('suggestions');
          navigate({ page: 'friends' });
        }}
      >
        See all suggestions
      </button>
    </section>
  );
}
