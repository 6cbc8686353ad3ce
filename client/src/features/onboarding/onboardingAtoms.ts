// Onboarding after a code verification (docs/product.md §2.7, §2.8, §4 Onboarding):
// profile picture (step 1), cover and bio (step 2), find people, then the
// profile setup call, then the feed. Persisted, so a reload resumes the step.

import { atom } from 'jotai';
import { isRecord, normalizeImage, str, type ImageRef } from '../../api/models';
import { readJSON, removeKey, STORAGE_KEYS, writeJSON, writeString } from '../../lib/storage';

export type OnboardingStep = 'picture' | 'details' | 'people';

export interface OnboardingState {
  step: OnboardingStep;
  avatar: ImageRef | null;
  coverPhoto: ImageRef | null;
  bio: string;
  /** 'Skip profile setup': the default profile from the signup info. */
  skipped: boolean;
}

const STEPS: readonly OnboardingStep[] = ['picture', 'details', 'people'];

export const INITIAL_ONBOARDING: OnboardingState = {
  step: 'picture',
  avatar: null,
  coverPhoto: null,
  bio: '',
  skipped: false,
};

function readStored(): OnboardingState | null {
  const v = readJSON(STORAGE_KEYS.onboarding);
  if (!isRecord(v)) return null;
  const step = STEPS.includes(v.step as OnboardingStep) ? (v.step as OnboardingStep) : 'picture';
  const img = (x: unknown) => {
    const i = normalizeImage(x);
    return i.url ? i : null;
  };
  return { step, avatar: img(v.avatar), coverPhoto: img(v.coverPhoto), bio: str(v.bio), skipped: v.skipped === true };
}

// undefined: not read from storage yet in this store.
const onboardingBaseAtom = atom<OnboardingState | null | undefined>(undefined);

/** The onboarding in progress, or null when there is none. */
export const onboardingAtom = atom<OnboardingState | null>((get) => {
  const v = get(onboardingBaseAtom);
  return v === undefined ? readStored() : v;
});

export const startOnboardingAtom = atom(null, (_get, set) => {
  writeJSON(STORAGE_KEYS.onboarding, INITIAL_ONBOARDING);
  set(onboardingBaseAtom, INITIAL_ONBOARDING);
});

export const updateOnboardingAtom = atom(null, (get, set, patch: Partial<OnboardingState>) => {
  const cur = get(onboardingAtom) ?? INITIAL_ONBOARDING;
  const next = { ...cur, ...patch };
  writeJSON(STORAGE_KEYS.onboarding, next);
  set(onboardingBaseAtom, next);
});

/** Ends onboarding: the feed comes next (docs/product.md §4: failures still end at the feed). */
export const finishOnboardingAtom = atom(null, (_get, set) => {
  removeKey(STORAGE_KEYS.onboarding);
  removeKey(STORAGE_KEYS.signup);
  writeString(STORAGE_KEYS.page, 'feed');
  set(onboardingBaseAtom, null);
});
