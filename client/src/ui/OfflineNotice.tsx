import { savedAtLabel } from '../lib/offlineCache';
import { useOnline } from './connectivity';

/**
 * Says that a screen shows what was last read, not the server's latest
 * (issue 27 item 5): "You're offline. Showing what you last saw at 3:05 PM;
 * it refreshes when you're back online." Without a kept copy it says only
 * that the screen will load when the network is back — never "not found".
 */
export function OfflineNotice({ savedAt, what }: { savedAt: string; what: string }) {
  const online = useOnline();
  const when = savedAt ? savedAtLabel(savedAt) : '';
  const lead = online ? "Can't reach Campus right now." : 'You’re offline.';
  return (
    <p className="alert alert--info offline-notice" role="status" data-testid="offline-notice">
      <strong>{lead}</strong>{' '}
      {when ? `Showing ${what} as of ${when}. This page refreshes by itself when the connection is back.` : `${capitalize(what)} will load when the connection is back.`}
    </p>
  );
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
