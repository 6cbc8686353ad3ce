import { useAtomValue } from 'jotai';
import { FindPeoplePage } from './FindPeoplePage';
import { onboardingAtom } from './onboardingAtoms';
import { ProfileSetupPage } from './ProfileSetupPage';

/** docs/product.md §4 Onboarding: profile setup (steps 1–2), then find people, then the feed. */
export function Onboarding() {
  const state = useAtomValue(onboardingAtom);
  return state?.step === 'people' ? <FindPeoplePage /> : <ProfileSetupPage />;
}
