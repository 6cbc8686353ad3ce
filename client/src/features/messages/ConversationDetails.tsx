import { useSetAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { navigateAtom } from '../../lib/navigation';
import { Avatar } from '../../ui/Avatar';
import { Modal } from '../../ui/Modal';
import { showToastAtom } from '../../ui/toast';
import { addMembersAtom, leaveConversationAtom, removeMemberAtom, updateConversationAtom } from './messageActions';
import { type Conversation, type Member, type UserBrief } from './model';
import { MAX_GROUP_MEMBERS, MAX_TITLE_LENGTH, MSG_NOT_E2E, otherMember } from './view';
import { refusalText } from './NewMessageDialog';
import { PersonPicker } from './PersonPicker';

/**
 * A conversation's details: mute for anyone; for a group its members, and for
 * its admins rename, add and remove; leave. A direct conversation links to
 * the other person's profile. A group's chat follows its group: its name and
 * members are changed there, which it links to.
 */
export function ConversationDetails({ conversation: c, myId, onClose }: { conversation: Conversation; myId: string; onClose: () => void }) {
  const update = useSetAtom(updateConversationAtom);
  const add = useSetAtom(addMembersAtom);
  const remove = useSetAtom(removeMemberAtom);
  const leave = useSetAtom(leaveConversationAtom);
  const navigate = useSetAtom(navigateAtom);
  const toast = useSetAtom(showToastAtom);
  const [title, setTitle] = useState(c.title);
  const [adding, setAdding] = useState<UserBrief[]>([]);
  const [showAdd, setShowAdd] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState<Member | null>(null);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const titleField = useId();
  const groupChat = c.group;
  const admin = c.kind === 'group' && c.role === 'admin' && !c.readOnly && !groupChat;
  const other = otherMember(c, myId);

  const run = async (what: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError('');
    try {
      await what();
      return true;
    } catch (err) {
      setError(refusalText(err, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const rename = (e: FormEvent) => {
    e.preventDefault();
    const t = title.trim();
    if (t === '' || t === c.title) return;
    void run(async () => {
      await update({ id: c.id, title: t });
      toast({ message: 'Group renamed.', tone: 'success' });
    }, 'Could not rename the group.');
  };

  // A confirmation takes the dialog's place (dialogs are never stacked).
  if (confirmRemove || confirmLeave) {
    const m = confirmRemove;
    const cancel = () => {
      setConfirmRemove(null);
      setConfirmLeave(false);
    };
    return (
      <Modal open onClose={cancel} title={m ? `Remove ${m.name}?` : 'Leave this group?'} size="sm" closable={!busy}>
        <p>{m ? "They will stop getting this group's messages and will not see new ones." : 'You will stop getting its messages. An admin can add you back.'}</p>
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={cancel} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            data-autofocus
            onClick={() => {
              if (m) {
                void run(() => remove({ id: c.id, userId: m.id }), 'Could not remove them.').then((ok) => ok && setConfirmRemove(null));
                return;
              }
              void run(() => leave(c.id), 'Could not leave the group.').then((ok) => {
                if (!ok) return;
                onClose();
                navigate({ page: 'messages' });
              });
            }}
          >
            {m ? 'Remove' : 'Leave'}
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal open onClose={onClose} title={c.kind === 'group' ? 'Group details' : 'Conversation details'} closable={!busy}>
      <div className="conv-details">
        <label className="settings-switch__row conv-details__mute">
          <span>Mute this conversation</span>
          <input
            type="checkbox"
            role="switch"
            checked={c.muted}
            aria-checked={c.muted}
            disabled={busy}
            onChange={(e) => void run(() => update({ id: c.id, muted: e.target.checked }), 'Could not change mute.')}
          />
        </label>

        {other && (
          <button type="button" className="button button--secondary" onClick={() => { onClose(); navigate({ page: 'profile', userId: other.id }); }}>
            View {other.name}'s profile
          </button>
        )}

        {groupChat && (
          <div className="conv-details__group">
            <p>This chat follows its group: its name and members are the group's, managed there.</p>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                onClose();
                navigate({ page: 'group', handle: groupChat.handle });
              }}
            >
              Open the group
            </button>
          </div>
        )}

        {admin && (
          <form className="conv-details__rename" onSubmit={rename}>
            <label className="field__label" htmlFor={titleField}>
              Group name
            </label>
            <div className="conv-details__rename-row">
              <input id={titleField} className="field__input" value={title} maxLength={MAX_TITLE_LENGTH} onChange={(e) => setTitle(e.target.value)} required />
              <button type="submit" className="button button--primary" disabled={busy || title.trim() === '' || title.trim() === c.title}>
                Rename
              </button>
            </div>
          </form>
        )}

        {c.kind === 'group' && (
          <section className="conv-details__members" aria-label="Members">
            <h3 className="conv-details__heading">{c.members.length} members</h3>
            <ul className="conv-details__list">
              {c.members.map((m) => (
                <li key={m.id} className="conv-details__member">
                  <span aria-hidden="true">
                    <Avatar name={m.name} url={m.avatarUrl} size={32} />
                  </span>
                  <span className="conv-details__name">
                    {m.id === myId ? `${m.name} (you)` : m.name}
                    {m.role === 'admin' && <span className="conv-details__role"> · Admin</span>}
                  </span>
                  {admin && m.id !== myId && (
                    <button type="button" className="button button--ghost button--sm" onClick={() => setConfirmRemove(m)} disabled={busy}>
                      Remove<span className="visually-hidden"> {m.name}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {admin && !showAdd && c.members.length < MAX_GROUP_MEMBERS && (
              <button type="button" className="button button--secondary" onClick={() => setShowAdd(true)}>
                Add people
              </button>
            )}
            {admin && showAdd && (
              <div className="conv-details__add">
                <PersonPicker selected={adding} onChange={setAdding} exclude={c.members.map((m) => m.id)} label="Add" />
                <div className="modal__actions">
                  <button type="button" className="button button--secondary" onClick={() => { setShowAdd(false); setAdding([]); }}>
                    Cancel
                  </button>
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={busy || adding.length === 0}
                    onClick={() =>
                      void run(async () => {
                        await add({ id: c.id, userIds: adding.map((u) => u.id) });
                        setAdding([]);
                        setShowAdd(false);
                      }, 'Could not add them.')
                    }
                  >
                    Add {adding.length > 0 ? adding.length : ''}
                  </button>
                </div>
              </div>
            )}
          </section>
        )}

        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}

        {c.kind === 'group' && !c.readOnly && !groupChat && (
          <button type="button" className="button button--danger" onClick={() => setConfirmLeave(true)} disabled={busy}>
            Leave group
          </button>
        )}
        <p className="muted conv-details__notice">{MSG_NOT_E2E}</p>
      </div>

    </Modal>
  );
}
