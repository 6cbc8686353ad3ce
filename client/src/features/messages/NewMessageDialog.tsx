import { useSetAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { isApiError } from '../../api/http';
import { navigateAtom } from '../../lib/navigation';
import { Modal } from '../../ui/Modal';
import { createGroupAtom, startDirectAtom } from './messageActions';
import { type UserBrief } from './model';
import { MAX_GROUP_MEMBERS, MAX_TITLE_LENGTH } from './view';
import { PersonPicker } from './PersonPicker';

/** The server's refusal: its message, and the people it names (a group add refused for some). */
export function refusalText(err: unknown, fallback: string): string {
  if (!isApiError(err)) return fallback;
  const named = err.errors.map((e) => e.msg).filter((m) => m && m !== err.message);
  return [err.message, ...named].join(' ');
}

/**
 * "New message": one person opens the direct conversation with them (the
 * existing one if there is one); several make a group, which needs a name.
 */
export function NewMessageDialog({ open, myId, onClose }: { open: boolean; myId: string; onClose: () => void }) {
  const startDirect = useSetAtom(startDirectAtom);
  const createGroup = useSetAtom(createGroupAtom);
  const navigate = useSetAtom(navigateAtom);
  const [people, setPeople] = useState<UserBrief[]>([]);
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const titleId = useId();
  const group = people.length > 1;
  const tooMany = people.length + 1 > MAX_GROUP_MEMBERS;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (people.length === 0 || busy || tooMany) return;
    if (group && title.trim() === '') {
      setError('Give the group a name.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const c = group ? await createGroup({ title: title.trim(), memberIds: people.map((p) => p.id) }) : await startDirect(people[0]!.id);
      setPeople([]);
      setTitle('');
      onClose();
      navigate({ page: 'conversation', conversationId: c.id });
    } catch (err) {
      setError(refusalText(err, 'Could not start the conversation.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} title="New message" closable={!busy}>
      <form className="new-message" onSubmit={(e) => void submit(e)}>
        <PersonPicker selected={people} onChange={(p) => { setPeople(p); setError(''); }} exclude={[myId]} />
        {group && (
          <div className="field">
            <label className="field__label" htmlFor={titleId}>
              Group name
            </label>
            <input
              id={titleId}
              className="field__input"
              value={title}
              maxLength={MAX_TITLE_LENGTH}
              aria-required="true"
              onChange={(e) => setTitle(e.target.value)}
            />
          </div>
        )}
        {tooMany && <p className="alert alert--error">A group has at most {MAX_GROUP_MEMBERS} members.</p>}
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={people.length === 0 || busy || tooMany}>
            {group ? 'Create group' : 'Chat'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
