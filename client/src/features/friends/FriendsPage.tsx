import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { consumeFriendsTab, navigateAtom, type FriendsTab } from '../../app/navigation';
import { pendingRequestsCountAtom } from './friendsAtoms';
import '../profile/placeholderPages.css';

const TABS: ReadonlyArray<{ id: FriendsTab; label: string }> = [
  { id: 'friends', label: 'Friends' },
  { id: 'requests', label: 'Requests' },
  { id: 'suggestions', label: 'Suggestions' },
];

/** The friends screen's frame (spec §2.15): title and tabs; the lists arrive with the friends issue. */
export function FriendsPage() {
  const [tab, setTab] = useState<FriendsTab>(() => consumeFriendsTab() ?? 'friends');
  const pending = useAtomValue(pendingRequestsCountAtom);
  const navigate = useSetAtom(navigateAtom);
  return (
    <section className="placeholder-page card" aria-labelledby="friends-title">
      <h1 id="friends-title" className="placeholder-page__title">
        Friends
      </h1>
      <div className="segmented" role="tablist" aria-label="Friends tabs">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={`segmented__tab${tab === t.id ? ' is-active' : ''}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
            {t.id === 'requests' && pending > 0 && <span className="badge">{pending}</span>}
          </button>
        ))}
      </div>
      <p className="muted">Your {TABS.find((t) => t.id === tab)?.label.toLowerCase()} will appear here soon.</p>
      <div>
        <button type="button" className="button button--secondary" onClick={() => navigate({ page: 'feed' })}>
          Back to feed
        </button>
      </div>
    </section>
  );
}
