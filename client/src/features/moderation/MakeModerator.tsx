import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { isApiError } from '../../api/http';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { showToastAtom } from '../../ui/toast';
import { setModerator } from './moderationApi';
import { useCapabilities } from './useCapabilities';

/** "Make moderator" on someone else's profile, for an admin only (issue 17). */
export function MakeModerator({ userId, name }: { userId: string; name: string }) {
  const toast = useSetAtom(showToastAtom);
  const caps = useCapabilities(true);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);

  const grant = async () => {
    setBusy(true);
    try {
      await setModerator(userId, true, 'Granted from the profile');
      toast({ message: `${name} is now a moderator`, tone: 'success' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Something went wrong. Please try again.', tone: 'error' });
    } finally {
      setBusy(false);
      setConfirm(false);
    }
  };

  if (!caps.admin) return null;
  return (
    <>
      <button type="button" className="button button--ghost button--sm" onClick={() => setConfirm(true)}>
        Make moderator
      </button>
      <ConfirmDialog
        open={confirm}
        title={`Make ${name} a moderator?`}
        body="Moderators see every report and can remove content and suspend accounts."
        confirmLabel="Make moderator"
        busy={busy}
        onConfirm={() => void grant()}
        onClose={() => setConfirm(false)}
      />
    </>
  );
}
