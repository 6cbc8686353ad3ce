import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { configAtom } from '../../api/config';
import { backFromSettingsAtom } from '../../lib/navigation';
import { ArrowLeftIcon } from '../../ui/icons';
import { BlockedTab } from '../safety/BlockedTab';
import { MessageSettings } from '../messages/MessageSettings';
import { DeleteAccountTab } from './DeleteAccountTab';
import { NotificationsTab } from './NotificationsTab';
import { PasswordTab } from './PasswordTab';
import { PersonalInfoTab } from './PersonalInfoTab';
import { SignInsTab } from './SignInsTab';
import './Settings.css';

type SettingsTab = 'personal' | 'password' | 'sign-ins' | 'notifications' | 'messages' | 'blocked' | 'delete';

const TABS: ReadonlyArray<{ id: SettingsTab; label: string }> = [
  { id: 'personal', label: 'Personal Information' },
  { id: 'password', label: 'Password & Security' },
  { id: 'sign-ins', label: 'Linked sign-ins' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'messages', label: 'Messages' },
  { id: 'blocked', label: 'Blocked people' },
  { id: 'delete', label: 'Delete Account' },
];

/**
 * The tab the address asks for (`/settings?tab=sign-ins&linked=oidc`, where
 * linking a university sign-in comes back to). The query leaves the address
 * once the page is on screen (an effect: a render React throws away must
 * not lose it), so a reload or a shared link opens the default tab.
 */
function tabFromAddress(tabs: ReadonlyArray<{ id: SettingsTab }>): { tab: SettingsTab; linked?: string } {
  const q = new URLSearchParams(window.location.search);
  const found = tabs.find((t) => t.id === q.get('tab'));
  return found ? { tab: found.id, linked: q.get('linked') ?? undefined } : { tab: 'personal' };
}

/** docs/product.md §2.16 Settings & Privacy: Back to the previous page (default feed) and its tabs. */
export function SettingsPage() {
  const back = useSetAtom(backFromSettingsAtom);
  // Linked sign-ins only where the operator configured a university sign-in.
  const hasSso = useAtomValue(configAtom).sso.length > 0;
  // (The config may still be on its way when a link comes back here.)
  const [start] = useState(() => tabFromAddress(TABS));
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has('tab')) {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, []);
  const [tab, setTab] = useState<SettingsTab>(start.tab);
  const tabs = hasSso || tab === 'sign-ins' ? TABS : TABS.filter((t) => t.id !== 'sign-ins');
  return (
    <section className="settings card" aria-labelledby="settings-title">
      <div className="settings__head">
        <button type="button" className="button button--ghost button--sm" onClick={() => back()}>
          <ArrowLeftIcon size={18} /> Back
        </button>
        <h1 id="settings-title" className="settings__title">
          Settings &amp; Privacy
        </h1>
      </div>
      <div className="settings__body">
        <div className="settings__tabs" role="tablist" aria-label="Settings" aria-orientation="vertical">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`settings-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`settings-panel-${t.id}`}
              className={`settings__tab${tab === t.id ? ' is-active' : ''}${t.id === 'delete' ? ' settings__tab--danger' : ''}`}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div className="settings__content" role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`}>
          {tab === 'personal' && <PersonalInfoTab />}
          {tab === 'password' && <PasswordTab />}
          {tab === 'sign-ins' && <SignInsTab linked={start.linked} />}
          {tab === 'notifications' && <NotificationsTab />}
          {tab === 'messages' && <MessageSettings />}
          {tab === 'blocked' && <BlockedTab />}
          {tab === 'delete' && <DeleteAccountTab />}
        </div>
      </div>
    </section>
  );
}
