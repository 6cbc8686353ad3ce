import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { userSubtitle } from '../../api/models';
import { FOLLOW_SIMULATED_SAVE_MS, SUGGESTION_FAST_ATTEMPTS, SUGGESTION_RETRY_MAX_MS, SUGGESTION_RETRY_MS } from '../../constants';
import { Avatar } from '../../ui/Avatar';
import { CheckIcon } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { showToastAtom } from '../../ui/toast';
import { currentUserAtom, updateCurrentUserAtom } from '../auth/authAtoms';
import { AuthCard } from '../auth/AuthCard';
import { readSignupHandoff } from '../auth/signupHandoff';
import { fetchSuggestions, suggestionReason, type Suggestion } from '../friends/friendsApi';
import { finishOnboardingAtom, onboardingAtom } from './onboardingAtoms';
import { setupProfile, type ProfileSetupPayload } from './profileApi';
import './Onboarding.css';

export const MSG_SETUP_FAILED = 'Failed to complete profile setup. Please try again.';

/** 'Follow 1 Person', 'Follow 3 People', or 'Continue' with nobody selected (docs/product.md §2.8). */
export function followLabel(n: number): string {
  if (n === 0) return 'Continue';
  return `Follow ${n} ${n === 1 ? 'Person' : 'People'}`;
}

/** docs/product.md §2.8: search by name, ID or role, case-insensitive. */
export function matchesSuggestion(s: Suggestion, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return [s.user.name, s.user.universityId, s.user.role].some((v) => v.toLowerCase().includes(q));
}

/**
 * The wait before retry number `attempt` + 1 (attempt counts from 1): docs/product.md §4's
 * 1 s for the first SUGGESTION_FAST_ATTEMPTS, then doubling to a 30 s ceiling.
 */
export function suggestionRetryDelay(attempt: number): number {
  if (attempt < SUGGESTION_FAST_ATTEMPTS) return SUGGESTION_RETRY_MS;
  const doublings = Math.min(attempt - SUGGESTION_FAST_ATTEMPTS + 1, 10);
  return Math.min(SUGGESTION_RETRY_MS * 2 ** doublings, SUGGESTION_RETRY_MAX_MS);
}

/**
 * docs/product.md §4: suggestions are retried until a non-empty answer arrives; only
 * leaving the step (unmount) stops it. After the fast phase `slow` turns on so
 * the screen can say there is nobody yet while it keeps looking.
 */
function useSuggestionsWithRetry() {
  const [list, setList] = useState<Suggestion[]>([]);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    const load = async () => {
      attempts += 1;
      try {
        const found = await fetchSuggestions(controller.signal);
        if (controller.signal.aborted) return;
        if (found.length > 0) {
          setList(found);
          return;
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (attempts >= SUGGESTION_FAST_ATTEMPTS) setSlow(true);
      timer = setTimeout(() => void load(), suggestionRetryDelay(attempts));
    };
    void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, []);
  return { list, slow };
}

/** docs/product.md §2.8 Find People You Know, then the profile setup call, then the feed. */
export function FindPeoplePage() {
  const user = useAtomValue(currentUserAtom);
  const state = useAtomValue(onboardingAtom);
  const finish = useSetAtom(finishOnboardingAtom);
  const updateUser = useSetAtom(updateCurrentUserAtom);
  const toast = useSetAtom(showToastAtom);
  const { list, slow } = useSuggestionsWithRetry();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState<'follow' | 'skip' | null>(null);
  const visible = useMemo(() => list.filter((s) => matchesSuggestion(s, query)), [list, query]);

  const toggle = (id: string) =>
    setSelected((cur) => {
      const next = new Set(cur);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  /** docs/product.md §4: the profile setup call, then the feed, whatever happens. */
  const complete = async () => {
    const handoff = readSignupHandoff();
    const payload: ProfileSetupPayload = {
      name: handoff?.fullName || user?.name || 'User',
      role: handoff?.role ?? user?.role ?? 'student',
    };
    if (state && !state.skipped) {
      payload.bio = state.bio;
      if (state.avatar) payload.avatar = state.avatar;
      if (state.coverPhoto) payload.coverPhoto = state.coverPhoto;
    }
    try {
      const res = await setupProfile(payload);
      updateUser(res.user ?? { name: res.name, bio: res.bio, avatar: res.avatar, coverPhoto: res.coverPhoto });
    } catch (err) {
      console.error('Profile setup failed', err);
      toast({ message: MSG_SETUP_FAILED, tone: 'error', ms: 5000 });
    }
    finish();
  };

  const onFollow = async () => {
    setSaving('follow');
    if (selected.size > 0) {
      // docs/product.md §2.8: the selection is not sent anywhere; saving is a simulated 1 s delay.
      await new Promise((r) => setTimeout(r, FOLLOW_SIMULATED_SAVE_MS));
    }
    await complete();
  };

  const onSkip = async () => {
    setSaving('skip');
    await complete();
  };

  return (
    <AuthCard title="Find People You Know" subtitle="Follow classmates and faculty to fill your feed." wide>
      <div className="find-people">
        <SearchField
          value={query}
          onChange={setQuery}
          label="Search suggestions by name, ID or role"
          placeholder="Search by name, ID or role"
        />

        {list.length === 0 ? (
          <div className="find-people__empty" role="status">
            <span className="spinner" aria-hidden="true" />
            <p>Looking for people you may know…</p>
            {slow && <p>No suggestions yet. You can find friends later from the Friends page.</p>}
          </div>
        ) : visible.length === 0 ? (
          <p className="find-people__empty">No one matches “{query.trim()}”.</p>
        ) : (
          <ul className="find-people__grid">
            {visible.map((s) => {
              const on = selected.has(s.user.id);
              return (
                <li key={s.user.id}>
                  <button
                    type="button"
                    className={`find-people__card${on ? ' is-selected' : ''}`}
                    aria-pressed={on}
                    onClick={() => toggle(s.user.id)}
                  >
                    {on && (
                      <span className="find-people__check" aria-hidden="true">
                        <CheckIcon size={14} />
                      </span>
                    )}
                    <Avatar name={s.user.name} url={s.user.avatar.thumbUrl || s.user.avatar.url} variants={s.user.avatar.variants} size={56} />
                    <span className="find-people__name">{s.user.name}</span>
                    <span className="find-people__meta">{userSubtitle(s.user)}</span>
                    {suggestionReason(s) && <span className="find-people__meta">{suggestionReason(s)}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        )}

        <div className="onboarding__actions">
          <button type="button" className="button button--secondary" onClick={() => void onSkip()} disabled={saving !== null}>
            {saving === 'skip' ? 'Finishing…' : 'Skip for now'}
          </button>
          <button type="button" className="button button--primary" onClick={() => void onFollow()} disabled={saving !== null}>
            {saving === 'follow' ? 'Saving…' : followLabel(selected.size)}
          </button>
        </div>
      </div>
    </AuthCard>
  );
}
