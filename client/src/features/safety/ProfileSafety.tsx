import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { showToastAtom } from '../../ui/toast';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ReportDialog } from './ReportDialog';
import { blockUser } from './safetyApi';

/**
 * Report and Block on someone else's profile (issue 17). Blocking leaves the
 * profile: to each, the other is gone. (An admin's "Make moderator" beside
 * them is moderation's.)
 */
export function ProfileSafety({ userId, name }: { userId: string; name: string }) {
  const toast = useSetAtom(showToastAtom);
  const navigate = useSetAtom(navigateAtom);
  const [reporting, setReporting] = useState(false);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [busy, setBusy] = useState(false);

  const block = async () => {
    setBusy(true);
    try {
      await blockUser(userId);
      toast({ message: `${name} is blocked`, tone: 'success' });
      navigate({ page: 'feed' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : 'Could not block. Please try again.', tone: 'error' });
      setBusy(false);
      setConfirmBlock(false);
    }
  };

  return (
    <>
      <button type="button" className="button button--ghost button--sm" onClick={() => setReporting(true)}>
        Report
      </button>
      <button type="button" className="button button--ghost button--sm" onClick={() => setConfirmBlock(true)}>
        Block
      </button>
      <ReportDialog open={reporting} itemType="profile" itemId={userId} onClose={() => setReporting(false)} />
      <ConfirmDialog
        open={confirmBlock}
        title={`Block ${name}?`}
        body="You will stop seeing each other's posts, comments and profiles, and your friendship will end. They are not told."
        confirmLabel="Block"
        busy={busy}
        onConfirm={() => void block()}
        onClose={() => setConfirmBlock(false)}
      />
    </>
  );
}
