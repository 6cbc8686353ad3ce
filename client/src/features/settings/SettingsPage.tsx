import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { backFromSettingsAtom } from '../../lib/navigation';
import { ArrowLeftIcon } from '../../ui/icons';
import { BlockedTab } from '../safety/BlockedTab';
import { MessageSettings } from '../messages/MessageSettings';
import { DeleteAccountTab } from './DeleteAccountTab';
import { NotificationsTab } from './NotificationsTab';
import { PasswordTab } from './PasswordTab';
import { PersonalInfoTab } from './PersonalInfoTab';
import './Settings.css';

type SettingsTab = 'personal' | 'password' | 'notifications' | 'messages' | 'blocked' | 'delete';

const TABS: ReadonlyArray<{ id: SettingsTab; label: string }> = [
  { id: 'personal', label: 'Personal Information' },
  { id: 'password', label: 'Password & Security' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'messages', label: 'Messages' },
  { id: 'blocked', label: 'Blocked people' },
  { id: 'delete', label: 'Delete Account' },
];

/** docs/product.md §2.16 Settings & Privacy: Back to the previous page (default feed) and three tabs. */
export function SettingsPage() {
  const back = useSetAtom(backFromSettingsAtom);
  const [tab, setTab] = useState<SettingsTab>('personal');
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
          {TABS.map((t) => (
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
          {tab === 'notifications' && <NotificationsTab />}
          {tab === 'messages' && <MessageSettings />}
          {tab === 'blocked' && <BlockedTab />}
          {tab === 'delete' && <DeleteAccountTab />}
        </div>
      </div>
    </section>
  );
}
