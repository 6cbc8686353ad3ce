import { useSyncExternalStore } from 'react';
import { installState, subscribeInstall, type InstallState } from '../lib/install';

/** This browser's install state, live (lib/install). */
export function useInstallState(): InstallState {
  return useSyncExternalStore(subscribeInstall, installState, () => 'unavailable');
}
