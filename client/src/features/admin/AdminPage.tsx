import { useAtom, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { navigateAtom } from '../../lib/navigation';
import { fetchCapabilities } from '../moderation/moderationApi';
import { ADMIN_TABS, adminTabAtom } from './adminAtoms';
import { AdminGroups } from './AdminGroups';
import { AdminSystem } from './AdminSystem';
import { AdminUsers } from './AdminUsers';
import './Admin.css';

/**
 * /admin: the admins' console — Users (search, view, suspend, sessions,
 * roles), Groups and System, with the moderation queue and the audit log
 * linked. Anyone else is told it is for admins (the server refuses them
 * every call anyway).
 */
export function AdminPage() {
  const [tab, setTab] = useAtom(adminTabAtom);
  const navigate = useSetAtom(navigateAtom);
  const [status, setStatus] = useState<'loading' | 'admin' | 'forbidden' | 'error'>('loading');

  useEffect(() => {
    let live = true;
    fetchCapabilities().then(
      (c) => live && setStatus(c.admin ? 'admin' : 'forbidden'),
      () => live && setStatus('error'),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="admin card" aria-labelledby="admin-title">
      <h1 id="admin-title" className="admin__title">
        Admin console
      </h1>
      {status === 'loading' && <p aria-busy="true">Loading…</p>}
      {status === 'error' && <p role="alert">Could not load the admin console. Please try again later.</p>}
      {status === 'forbidden' && (
        <div className="admin__forbidden">
          <p role="alert">Only admins can see the admin console.</p>
          <button type="button" className="button button--secondary" onClick={() => navigate({ page: 'feed' })}>
            Go to your feed
          </button>
        </div>
      )}
      {status === 'admin' && (
        <>
          <nav className="admin__links" aria-label="Moderation">
            <button type="button" className="button button--ghost button--sm" onClick={() => navigate({ page: 'moderation' })}>
              Reports: the moderation queue
            </button>
            <button type="button" className="button button--ghost button--sm" onClick={() => navigate({ page: 'moderation' })}>
              The audit log (below the queue)
            </button>
          </nav>
          <div className="admin__tabs" role="tablist" aria-label="Admin sections">
            {ADMIN_TABS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`admin-tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls="admin-tabpanel"
                className={`admin__tab${tab === t.id ? ' is-active' : ''}`}
                onClick={() => setTab(t.id)}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div id="admin-tabpanel" role="tabpanel" aria-labelledby={`admin-tab-${tab}`} className="admin__panel">
            {tab === 'users' && <AdminUsers />}
            {tab === 'groups' && <AdminGroups />}
            {tab === 'system' && <AdminSystem />}
          </div>
        </>
      )}
    </section>
  );
}
