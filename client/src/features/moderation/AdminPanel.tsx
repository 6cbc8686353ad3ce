import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/http';
import { fullDate } from '../../lib/time';
import { showToastAtom } from '../../ui/toast';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { fetchAudit, fetchModerators, setModerator, type AuditEntry, type Moderator } from './moderationApi';

const ACTION_LABELS: Record<string, string> = {
  dismiss: 'dismissed reports on',
  remove: 'removed',
  suspend: 'suspended',
  unsuspend: 'lifted the suspension of',
  grant_moderator: 'made a moderator:',
  revoke_moderator: 'removed a moderator:',
  grant_admin: 'made an admin:',
  revoke_admin: 'removed an admin:',
  reset_sessions: 'signed out everywhere:',
};

/** Admins only: the moderators (each removable, asked first) and the audit log of every action. */
export function AdminPanel() {
  const toast = useSetAtom(showToastAtom);
  const [mods, setMods] = useState<Moderator[]>([]);
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [pending, setPending] = useState<Moderator | null>(null);
  const [busy, setBusy] = useState(false);

  const loadAudit = useCallback(async (after: string | null) => {
    const page = await fetchAudit(after);
    setEntries((prev) => (after ? [...prev, ...page.entries] : page.entries));
    setCursor(page.nextCursor);
  }, []);

  useEffect(() => {
    void fetchModerators().then(setMods, () => undefined);
    void loadAudit(null).catch(() => undefined);
  }, [loadAudit]);

  const revoke = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await setModerator(pending.id, false);
      setMods((prev) => prev.filter((m) => m.id !== pending.id));
      toast({ message: `${pending.name} is no longer a moderator`, tone: 'success' });
      setPending(null);
      void loadAudit(null).catch(() => undefined);
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Something went wrong. Please try again.', tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="moderation__admin">
      <h2 className="moderation__subtitle">Moderators</h2>
      <p className="safety-empty">Make someone a moderator from their profile.</p>
      {mods.length === 0 ? (
        <p className="safety-empty">No moderators yet.</p>
      ) : (
        <ul className="safety-list" aria-label="Moderators">
          {mods.map((m) => (
            <li key={m.id} className="safety-list__row">
              <span className="safety-list__name">{m.name}</span>
              <button type="button" className="button button--secondary button--sm" onClick={() => setPending(m)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <h2 id="audit-log" className="moderation__subtitle">
        Audit log
      </h2>
      {entries.length === 0 ? (
        <p className="safety-empty">No moderation actions yet.</p>
      ) : (
        <ol className="moderation__audit" aria-label="Audit log">
          {entries.map((e) => (
            <li key={e.id}>
              <time dateTime={e.createdAt}>{fullDate(e.createdAt)}</time> — <strong>{e.actorName || 'A former moderator'}</strong>{' '}
              {ACTION_LABELS[e.action] ?? e.action} {e.targetName ? e.targetName : `a ${e.itemType}`}
              {e.reason && <> · “{e.reason}”</>}
              {e.snapshot && <div className="moderation__snapshot">{e.snapshot}</div>}
            </li>
          ))}
        </ol>
      )}
      {cursor && (
        <button type="button" className="button button--ghost" onClick={() => void loadAudit(cursor)}>
          Show more
        </button>
      )}
      <ConfirmDialog
        open={pending !== null}
        title="Remove moderator?"
        body={pending ? `${pending.name} will no longer see the moderation queue.` : ''}
        confirmLabel="Remove"
        busy={busy}
        onConfirm={() => void revoke()}
        onClose={() => setPending(null)}
      />
    </div>
  );
}
