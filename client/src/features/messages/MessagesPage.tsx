import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { PlusUserIcon } from '../../ui/icons';
import { currentUserAtom } from '../auth/authAtoms';
import { ConversationList } from './ConversationList';
import { conversationListAtom, conversationListStatusAtom, loadConversationsAtom } from './messagesAtoms';
import { MSG_NOT_E2E } from './view';
import { NewMessageDialog } from './NewMessageDialog';
import { Thread } from './Thread';
import './Messages.css';

// The store's frame handlers travel with the screens (app/realtime loads
// this chunk for the first message event), not with the first screen.
export {
  applyConversationFrameAtom,
  applyConversationRemovedAtom,
  applyMessageFrameAtom,
  applyReadFrameAtom,
  applyTypingFrameAtom,
  messagesReconnectedAtom,
} from './messagesAtoms';

/**
 * /messages and /messages/{id}: the conversation list beside the open thread
 * (on a narrow screen one or the other), and the "New message" dialog.
 */
export function MessagesPage({ conversationId }: { conversationId?: string }) {
  const me = useAtomValue(currentUserAtom);
  const myId = me?.id ?? '';
  const load = useSetAtom(loadConversationsAtom);
  const status = useAtomValue(conversationListStatusAtom);
  const list = useAtomValue(conversationListAtom);
  const [composing, setComposing] = useState(false);
  // After the first render, a conversation opened here came from the list: it takes focus.
  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className={`messages messages--${conversationId ? 'thread' : 'list'}`}>
      <section className="messages__list-pane card" aria-labelledby="messages-title">
        <div className="messages__list-head">
          <h1 id="messages-title" className="messages__title">
            Messages
          </h1>
          <button type="button" className="button button--primary button--sm messages__new" onClick={() => setComposing(true)}>
            <PlusUserIcon size={16} /> New message
          </button>
        </div>
        {status === 'ready' && list.length > 0 && <p className="messages__notice">{MSG_NOT_E2E}</p>}
        <div className="messages__list-body">
          <ConversationList myId={myId} currentId={conversationId ?? null} onNew={() => setComposing(true)} />
        </div>
      </section>
      <div className="messages__thread-pane card">
        {conversationId ? (
          <Thread key={conversationId} conversationId={conversationId} focusOnOpen={shown.current} />
        ) : (
          <div className="messages__placeholder">
            <p className="empty-state__title">Your messages</p>
            <p className="muted">Choose a conversation, or start a new one.</p>
          </div>
        )}
      </div>
      <NewMessageDialog open={composing} myId={myId} onClose={() => setComposing(false)} />
    </div>
  );
}
