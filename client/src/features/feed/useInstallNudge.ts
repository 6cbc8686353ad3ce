import { useState } from 'react';
import { countFeedVisit, dismissNudge, nudgeDismissedAt, shouldNudge, type InstallState } from '../../lib/install';
import { useInstallState } from '../../ui/useInstall';

/**
 * Whether the feed offers install now (lib/install's rule: installable, the
 * third visit or later, not dismissed lately); this mount counts as a visit.
 */
export function useInstallNudge(): { show: boolean; state: InstallState; dismiss: () => void } {
  const state = useInstallState();
  const [visits] = useState(countFeedVisit);
  const [dismissedAt, setDismissedAt] = useState(nudgeDismissedAt);
  const [now] = useState(() => Date.now());
  return {
    show: shouldNudge({ state, visits, dismissedAt, now }),
    state,
    dismiss: () => {
      dismissNudge();
      setDismissedAt(Date.now());
    },
  };
}
