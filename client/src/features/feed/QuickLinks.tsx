import { useAtomValue, useSetAtom } from 'jotai';
import { supportEmailAtom } from '../../api/config';
import { navigateAtom, setStoredProfileTab } from '../../lib/navigation';
import { BookmarkIcon, ClockIcon, GiftIcon, HelpIcon, SettingsIcon } from '../../ui/icons';

/** docs/product.md §2.12 left column. */
export function QuickLinks() {
  const navigate = useSetAtom(navigateAtom);
  const supportEmail = useAtomValue(supportEmailAtom);
  const ownProfileTab = (tab: 'memories' | 'collections') => () => {
    setStoredProfileTab(tab);
    navigate({ page: 'profile' });
  };
  return (
    <nav className="card quick-links" aria-label="Quick Links">
      <h2 className="side-title">Quick Links</h2>
      <ul>
        <li>
          <button type="button" className="quick-links__item" onClick={ownProfileTab('memories')}>
            <ClockIcon /> Memories
          </button>
        </li>
        <li>
          <button type="button" className="quick-links__item" onClick={ownProfileTab('collections')}>
            <BookmarkIcon /> Collections
          </button>
        </li>
        <li>
          <button type="button" className="quick-links__item" onClick={() => navigate({ page: 'settings' })}>
            <SettingsIcon /> Settings
          </button>
        </li>
        <li>
          <a className="quick-links__item" href={supportEmail ? `mailto:${supportEmail}` : undefined}>
            <HelpIcon /> Help
          </a>
        </li>
        <li>
          {/* docs/product.md §2.12: Contribute does nothing yet. */}
          <button type="button" className="quick-links__item" title="Coming soon">
            <GiftIcon /> Contribute
          </button>
        </li>
      </ul>
    </nav>
  );
}
