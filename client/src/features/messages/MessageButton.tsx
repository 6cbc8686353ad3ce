import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { MessageIcon } from '../../ui/icons';
import { startDirectAtom } from './messageActions';
import './Messages.css';

/**
 * "Message" on another person's profile: opens the direct conversation with
 * them (the server finds the existing one or makes it). A refusal — they take
 * messages only from friends, a block, a suspension, the new-account brake —
 * is shown as the server words it.
 */
export function MessageButton({ userId, name }: { userId: string; name: string }) {
  const start = useSetAtom(startDirectAtom);
  const navigate = useSetAtom(navigateAtom);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const onClick = async () => {
    setBusy(true);
    setError('');
    try {
      const c = await start(userId);
      navigate({ page: 'conversation', conversationId: c.id });
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not open the conversation.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button--secondary profile-message" onClick={() => void onClick()} disabled={busy} aria-busy={busy} aria-label={`Message ${name}`}>
        <MessageIcon size={18} />
        Message
      </button>
      {error && (
        <p className="alert alert--error profile-message__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
