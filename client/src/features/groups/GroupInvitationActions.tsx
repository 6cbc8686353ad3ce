import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { isApiError } from '../../api/http';
import { showToastAtom } from '../../ui/toast';
import { declineInvitationAtom, joinGroupAtom } from './groupsAtoms';

/**
 * Accept / Decline on a group_invitation notification (issue 18): accepting
 * is joining. An invitation answered elsewhere answers with the server's
 * message ("There is no such invitation.").
 */
export function GroupInvitationActions({ group }: { group: { handle: string; name: string } }) {
  const join = useSetAtom(joinGroupAtom);
  const decline = useSetAtom(declineInvitationAtom);
  const toast = useSetAtom(showToastAtom);
  const [state, setState] = useState<'idle' | 'busy' | 'accepted' | 'declined'>('idle');

  if (state === 'accepted' || state === 'declined') {
    return (
      <span className="notification__accepted" role="status">
        {state === 'accepted' ? 'Joined' : 'Declined'}
      </span>
    );
  }

  const answer = async (accept: boolean) => {
    setState('busy');
    try {
      await (accept ? join(group.handle) : decline(group.handle));
      setState(accept ? 'accepted' : 'declined');
    } catch (err) {
      setState('idle');
      toast({ message: isApiError(err) ? err.message : 'Could not answer the invitation. Please try again.', tone: 'error', ms: 4000 });
    }
  };

  return (
    <span className="notification__group-actions">
      <button
        type="button"
        className="button button--primary button--sm"
        disabled={state === 'busy'}
        aria-label={`Accept invitation to ${group.name}`}
        onClick={() => void answer(true)}
      >
        Accept
      </button>
      <button
        type="button"
        className="button button--secondary button--sm"
        disabled={state === 'busy'}
        aria-label={`Decline invitation to ${group.name}`}
        onClick={() => void answer(false)}
      >
        Decline
      </button>
    </span>
  );
}
