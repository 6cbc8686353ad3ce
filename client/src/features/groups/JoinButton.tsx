import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useState } from 'react';
import { isApiError } from '../../api/http';
import { showToastAtom } from '../../ui/toast';
import { currentUserAtom } from '../auth/authAtoms';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { cancelJoinRequestAtom, declineInvitationAtom, groupAtom, joinGroupAtom, leaveGroupAtom } from './groupsAtoms';
import { courseEligible, JOIN_LABELS, joinAction, type Group } from './model';

/** The toast after a membership change, from the group as it now is. */
export function joinedMessage(before: Group['me']['status'], after: Group | undefined): string | null {
  if (!after) return null;
  if (after.me.status === 'member' && before !== 'member') return `You joined ${after.name}`;
  if (after.me.status === 'requested' && before !== 'requested') return 'Request sent. An admin of the group will answer it.';
  if (after.me.status === 'none' && before === 'member') return `You left ${after.name}`;
  return null;
}

/**
 * Join / Request to join / Cancel request / Accept invitation (with Decline) /
 * Leave group, as the viewer's status allows (an owner has none: they
 * transfer first). Leaving asks first.
 */
export function JoinButton({ group, compact = false }: { group: Group; compact?: boolean }) {
  const store = useStore();
  const join = useSetAtom(joinGroupAtom);
  const leave = useSetAtom(leaveGroupAtom);
  const cancel = useSetAtom(cancelJoinRequestAtom);
  const decline = useSetAtom(declineInvitationAtom);
  const toast = useSetAtom(showToastAtom);
  const [busy, setBusy] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const me = useAtomValue(currentUserAtom);
  const action = joinAction(group, courseEligible(group.course, me?.universityId ?? ''));
  if (!action) return null;

  const run = async (fn: () => Promise<void>, fallback: string) => {
    setBusy(true);
    try {
      const before = group.me.status;
      await fn();
      const message = joinedMessage(before, store.get(groupAtom(group.handle)));
      if (message) toast({ message, tone: 'success' });
    } catch (err) {
      toast({ message: isApiError(err) ? err.message : fallback, tone: 'error', ms: 4000 });
    } finally {
      setBusy(false);
    }
  };

  const size = compact ? ' button--sm' : '';
  const label = JOIN_LABELS[action];
  const onClick = () => {
    if (action === 'leave') {
      setConfirmLeave(true);
      return;
    }
    const fn = action === 'cancel' ? () => cancel(group.handle) : () => join(group.handle);
    void run(fn, 'Could not update your membership. Please try again.');
  };

  return (
    <span className="join-button">
      <button
        type="button"
        className={`button${action === 'leave' || action === 'cancel' ? ' button--secondary' : ' button--primary'}${size}`}
        disabled={busy}
        aria-busy={busy}
        onClick={onClick}
        // In a list of groups, the name tells the buttons apart.
        aria-label={compact ? `${label}: ${group.name}` : undefined}
      >
        {label}
      </button>
      {action === 'accept' && (
        <button
          type="button"
          className={`button button--secondary${size}`}
          disabled={busy}
          aria-label={compact ? `Decline invitation: ${group.name}` : undefined}
          onClick={() => void run(() => decline(group.handle), 'Could not decline. Please try again.')}
        >
          Decline
        </button>
      )}
      {action === 'leave' && (
        <ConfirmDialog
          open={confirmLeave}
          title={`Leave ${group.name}?`}
          body={
            group.visibility === 'public'
              ? 'You can join again any time.'
              : group.visibility === 'closed'
                ? "You will stop seeing the group's posts. Joining again needs an admin's approval."
                : "You will stop seeing the group. Joining again needs a new invitation."
          }
          confirmLabel="Leave"
          busy={busy}
          onConfirm={() =>
            void run(async () => {
              await leave(group.handle);
              setConfirmLeave(false);
            }, 'Could not leave the group. Please try again.')
          }
          onClose={() => setConfirmLeave(false)}
        />
      )}
    </span>
  );
}
