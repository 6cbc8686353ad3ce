import { useSetAtom } from 'jotai';
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent } from 'react';
import { CloseIcon, SendIcon } from '../../ui/icons';
import { readDraft, writeDraft } from './drafts';
import { sendTypingAtom } from './messageActions';
import { type Message } from './model';
import { MAX_MESSAGE_LENGTH } from './view';

export interface ComposerHandle {
  focus: () => void;
}

export interface ComposerProps {
  conversationId: string;
  myId: string;
  /** Who the thread is with, for the field's label. */
  title: string;
  replyTo: Message | null;
  editing: Message | null;
  onCancelReply: () => void;
  onCancelEdit: () => void;
  onSend: (body: string) => void;
  /** Saves an edit; rejects with the reason to show. */
  onSaveEdit: (body: string) => Promise<void>;
  /** ArrowUp in an empty field: edit my last message. */
  onEditLast: () => void;
}

/** Shown under the field once a message nears the limit. */
const COUNT_FROM = MAX_MESSAGE_LENGTH - 500;

/**
 * The message field: Enter sends, Shift+Enter starts a new line, Escape drops
 * a reply or an edit. The draft of each conversation is kept (drafts.ts)
 * while it is typed; an edit works on the message and leaves the draft be.
 */
export const MessageComposer = forwardRef<ComposerHandle, ComposerProps>(function MessageComposer(
  { conversationId, myId, title, replyTo, editing, onCancelReply, onCancelEdit, onSend, onSaveEdit, onEditLast },
  ref,
) {
  const sendTyping = useSetAtom(sendTypingAtom);
  const [text, setText] = useState(() => readDraft(myId, conversationId));
  const [editText, setEditText] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const contextId = useId();
  const errorId = useId();

  useImperativeHandle(ref, () => ({ focus: () => field.current?.focus() }), []);

  // Another conversation: its own draft.
  const shownFor = useRef(conversationId);
  useEffect(() => {
    if (shownFor.current === conversationId) return;
    shownFor.current = conversationId;
    setText(readDraft(myId, conversationId));
    setError('');
  }, [conversationId, myId]);

  useEffect(() => {
    setEditText(editing ? editing.body : '');
    setError('');
    if (editing) field.current?.focus();
  }, [editing]);

  useEffect(() => {
    if (replyTo) field.current?.focus();
  }, [replyTo]);

  const value = editing ? editText : text;
  const trimmed = value.trim();
  const tooLong = trimmed.length > MAX_MESSAGE_LENGTH;

  const change = (v: string) => {
    setError('');
    if (editing) {
      setEditText(v);
      return;
    }
    setText(v);
    writeDraft(myId, conversationId, v);
    if (v.trim() !== '') sendTyping(conversationId);
  };

  const submit = async () => {
    if (trimmed === '' || tooLong || saving) return;
    if (editing) {
      if (trimmed === editing.body.trim()) {
        onCancelEdit();
        return;
      }
      setSaving(true);
      try {
        await onSaveEdit(trimmed);
      } catch (err) {
        setError(err instanceof Error ? err.message : 'Could not save the edit.');
      } finally {
        setSaving(false);
      }
      return;
    }
    onSend(trimmed);
    setText('');
    writeDraft(myId, conversationId, '');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && (editing || replyTo)) {
      e.preventDefault();
      e.stopPropagation();
      if (editing) onCancelEdit();
      else onCancelReply();
    } else if (e.key === 'ArrowUp' && value === '' && !editing) {
      e.preventDefault();
      onEditLast();
    }
  };

  const context = editing ? (
    <>
      <span className="composer__context-label">Editing message</span>
    </>
  ) : replyTo ? (
    <>
      <span className="composer__context-label">
        Replying to {replyTo.sender.id === myId ? 'yourself' : replyTo.sender.name}
      </span>
      <span className="composer__context-snippet">{replyTo.unsent ? 'Message unsent' : replyTo.body}</span>
    </>
  ) : null;

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {context && (
        <div className="composer__context" id={contextId}>
          <div className="composer__context-text">{context}</div>
          <button
            type="button"
            className="icon-button composer__context-close"
            aria-label={editing ? 'Cancel edit' : 'Cancel reply'}
            onClick={() => {
              if (editing) onCancelEdit();
              else onCancelReply();
              field.current?.focus();
            }}
          >
            <CloseIcon size={16} />
          </button>
        </div>
      )}
      <div className="composer__row">
        <label htmlFor={fieldId} className="visually-hidden">
          {editing ? 'Edit message' : `Message ${title}`}
        </label>
        <textarea
          id={fieldId}
          ref={field}
          className="composer__field"
          rows={1}
          value={value}
          placeholder={editing ? 'Edit message…' : 'Message…'}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={[context ? contextId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined}
          aria-invalid={tooLong || undefined}
          enterKeyHint="send"
        />
        <button type="submit" className="button button--primary composer__send" disabled={trimmed === '' || tooLong || saving} aria-label={editing ? 'Save edit' : 'Send'}>
          <SendIcon size={18} />
        </button>
      </div>
      {trimmed.length > COUNT_FROM && (
        <p className={`composer__count${tooLong ? ' is-over' : ''}`} aria-live="polite">
          {trimmed.length}/{MAX_MESSAGE_LENGTH}
        </p>
      )}
      {error && (
        <p className="composer__error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </form>
  );
});
