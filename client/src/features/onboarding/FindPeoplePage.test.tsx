import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUGGESTION_FAST_ATTEMPTS, SUGGESTION_RETRY_MAX_MS } from '../../constants';
import { installFakeFetch, json } from '../../test/fakeFetch';
import { FindPeoplePage, followLabel, matchesSuggestion, suggestionRetryDelay } from './FindPeoplePage';
import { onboardingAtom, startOnboardingAtom, updateOnboardingAtom } from './onboardingAtoms';

const ok = (data: unknown) => json({ status: 'success', data });
const me = { id: 'u1', name: 'Asha Rao', email: 'asha@uni.edu', role: 'student', universityId: 'BWU/BCA/20/123', avatar: { url: '' } };
const people = [
  { user: { id: 'u2', name: 'Ravi Kumar', universityId: 'BWU/BCA/20/9', role: 'student' }, mutualFriends: 1 },
  { user: { id: 'u3', name: 'Dr Meera Iyer', universityId: '', role: 'faculty' } },
  { user: { id: 'u4', name: 'Zoya Khan', universityId: 'BWU/BSC/21/4', role: 'student' } },
];

function renderPage(suggestions: () => Response) {
  const fetchMock = installFakeFetch({
    '/api/friends/suggestions': suggestions,
    '/api/profile/setup': () => ok({ name: 'Asha Rao', bio: '', avatar: { url: '' }, coverPhoto: { url: '' } }),
  });
  localStorage.setItem('campus.token', 'tok');
  localStorage.setItem('campus.auth', JSON.stringify({ isAuthenticated: true, user: me }));
  const store = createStore();
  store.set(startOnboardingAtom);
  store.set(updateOnboardingAtom, { step: 'people', skipped: true });
  render(
    <Provider store={store}>
      <FindPeoplePage />
    </Provider>,
  );
  return { store, fetchMock };
}

const suggestionCalls = (m: ReturnType<typeof installFakeFetch>) => m.mock.calls.filter((c) => String(c[0]).includes('suggestions')).length;

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Find People You Know (docs/product.md §2.8)', () => {
  it("labels: 'Follow 1 Person', 'Follow N People', or Continue", () => {
    expect(followLabel(0)).toBe('Continue');
    expect(followLabel(1)).toBe('Follow 1 Person');
    expect(followLabel(3)).toBe('Follow 3 People');
  });

  it('searches by name, ID or role', () => {
    const [ravi, meera] = [
      { user: { id: 'u2', name: 'Ravi Kumar', universityId: 'BWU/BCA/20/9', role: 'student' as const, avatar: { url: '' } }, mutualFriends: 0, relevance: [], priority: 0 },
      { user: { id: 'u3', name: 'Dr Meera Iyer', universityId: '', role: 'faculty' as const, avatar: { url: '' } }, mutualFriends: 0, relevance: [], priority: 0 },
    ];
    expect(matchesSuggestion(ravi, 'ravi')).toBe(true);
    expect(matchesSuggestion(ravi, 'bca/20')).toBe(true);
    expect(matchesSuggestion(meera, 'FACULTY')).toBe(true);
    expect(matchesSuggestion(meera, 'student')).toBe(false);
  });

  it('retries every 1 s until the suggestions are non-empty', async () => {
    let calls = 0;
    const { fetchMock } = renderPage(() => {
      calls += 1;
      return ok(calls < 3 ? [] : people);
    });
    expect(await screen.findByText('Looking for people you may know…')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(suggestionCalls(fetchMock)).toBe(2);
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(5000));
    expect(suggestionCalls(fetchMock)).toBe(3); // stops once non-empty
  });

  it('backs off after the fast phase: 1 s, then doubling, capped', () => {
    expect(suggestionRetryDelay(1)).toBe(1000);
    expect(suggestionRetryDelay(SUGGESTION_FAST_ATTEMPTS - 1)).toBe(1000);
    expect(suggestionRetryDelay(SUGGESTION_FAST_ATTEMPTS)).toBe(2000);
    expect(suggestionRetryDelay(SUGGESTION_FAST_ATTEMPTS + 1)).toBe(4000);
    expect(suggestionRetryDelay(SUGGESTION_FAST_ATTEMPTS + 50)).toBe(SUGGESTION_RETRY_MAX_MS);
  });

  it('never gives up (docs/product.md §4): keeps trying with backoff until some arrive', async () => {
    let calls = 0;
    const late = SUGGESTION_FAST_ATTEMPTS + 5;
    const { fetchMock } = renderPage(() => {
      calls += 1;
      return ok(calls < late ? [] : people);
    });
    await act(async () => vi.advanceTimersByTimeAsync(SUGGESTION_FAST_ATTEMPTS * 1000 + 500));
    expect(screen.getByText(/No suggestions yet/)).toBeTruthy();
    // 2 + 4 + 8 + 16 + 30 s of backoff reach the late answer.
    await act(async () => vi.advanceTimersByTimeAsync(70_000));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    expect(suggestionCalls(fetchMock)).toBe(late);
  });

  it('multi-selects, filters, and follows with a simulated 1 s save (nothing sent), then the feed', async () => {
    const { store, fetchMock } = renderPage(() => ok(people));
    await screen.findByText('Ravi Kumar');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    act(() => screen.getByRole('button', { name: /Ravi Kumar/ }).click());
    expect(screen.getByRole('button', { name: 'Follow 1 Person' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search suggestions by name, ID or role'), { target: { value: 'faculty' } });
    expect(screen.queryByText('Ravi Kumar')).toBeNull();
    act(() => screen.getByRole('button', { name: /Dr Meera Iyer/ }).click());
    const follow = screen.getByRole('button', { name: 'Follow 2 People' });
    act(() => follow.click());
    await act(async () => vi.advanceTimersByTimeAsync(500));
    expect(store.get(onboardingAtom)).not.toBeNull(); // still saving
    expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('send-request'))).toBe(false);
    await act(async () => vi.advanceTimersByTimeAsync(700));
    await vi.waitFor(() => expect(store.get(onboardingAtom)).toBeNull());
    expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('/profile/setup'))).toBe(true);
  });

  it("'Skip for now' completes with none followed", async () => {
    const { store } = renderPage(() => ok(people));
    await screen.findByText('Ravi Kumar');
    await act(async () => screen.getByRole('button', { name: 'Skip for now' }).click());
    await vi.waitFor(() => expect(store.get(onboardingAtom)).toBeNull());
  });
});
