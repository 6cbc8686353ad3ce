import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { userSubtitle } from '../../api/models';
import { navigateAtom, presetFriendsTab } from '../../app/navigation';
import { FEED_SUGGESTIONS } from '../../constants';
import { Avatar } from '../../ui/Avatar';
import { CheckIcon, PlusUserIcon } from '../../ui/icons';
import { Skeleton } from '../../ui/Skeleton';
import { fetchSuggestions, sendFriendRequest, type Suggestion } from '../friends/friendsApi';

type SendState = 'sending' | 'sent';

/** Spec §2.12 right column: up to 3 suggestions, each with Add → disabled 'Sent'. */
export function PeopleYouMayKnow() {
  const navigate = useSetAtom(navigateAtom);
  const [list, setList] = useState<Suggestion[] | null>(null);
  const [sent, setSent] = useState<Record<string, SendState>>({});

  useEffect(() => {
    const controller = new AbortController();
    fetchSuggestions(controller.signal)
      .then((s) => setList(s.slice(0, FEED_SUGGESTIONS)))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Suggestions failed', err); // silent (spec §8.5)
        setList([]);
      });
    return () => controller.abort();
  }, []);

  const add = async (id: string) => {
    setSent((s) => ({ ...s, [id]: 'sending' }));
    try {
      await sendFriendRequest(id);
      setSent((s) => ({ ...s, [id]: 'sent' }));
    } catch (err) {
      console.error('Friend request failed', err); // silent (spec §8.5)
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
            return (
              <li key={s.user.id} className="people__row">
                <button type="button" className="people__who" onClick={() => navigate({ page: 'profile', userId: s.user.id })}>
                  <Avatar name={s.user.name} url={s.user.avatar.url} />
                  <span className="people__text">
                    <span className="people__name">{s.user.name}</span>
                    <span className="people__sub">
                      {s.mutualFriends > 0 ? `${s.mutualFriends} mutual friend${s.mutualFriends === 1 ? '' : 's'}` : userSubtitle(s.user)}
                    </span>
                  </span>
                </button>
                <button
                  type="button"
                  className={`button button--sm ${state === 'sent' ? 'button--secondary' : 'button--primary'}`}
                  disabled={state !== undefined}
                  onClick={() => void add(s.user.id)}
                  aria-label={state === 'sent' ? `Request sent to ${s.user.name}` : `Add ${s.user.name} as a friend`}
                >
                  {state === 'sent' ? (
                    <>
                      <CheckIcon size={16} /> Sent
                    </>
                  ) : (
                    <>
                      <PlusUserIcon size={16} /> Add
                    </>
                  )}
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
