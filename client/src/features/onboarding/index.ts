export { Onboarding } from './Onboarding';
export { onboardingAtom, startOnboardingAtom, finishOnboardingAtom } from './onboardingAtoms';
