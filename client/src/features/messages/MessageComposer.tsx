import { useSetAtom } from 'jotai';
import {
  forwardRef,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
} from 'react';
import { IMAGE_ACCEPT } from '../../lib/imageFiles';
import { CloseIcon, ImageIcon, SendIcon } from '../../ui/icons';
import { AltField } from '../posts/AltField';
import { checkNewImages } from '../posts/postDialogLogic';
import { readDraft, writeDraft } from './drafts';
import { sendTypingAtom } from './messageActions';
import { type Message, type OutgoingImage } from './model';
import { MAX_MESSAGE_IMAGES, MAX_MESSAGE_LENGTH, MSG_TOO_MANY_MESSAGE_IMAGES, textOf } from './view';

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
  /** Sends text, images or both; the images' previews are the send's from then on. */
  onSend: (body: string, images: OutgoingImage[]) => void;
  /** Saves an edit; rejects with the reason to show. */
  onSaveEdit: (body: string) => Promise<void>;
  /** ArrowUp in an empty field: edit my last message. */
  onEditLast: () => void;
}

/** Shown under the field once a message nears the limit. */
const COUNT_FROM = MAX_MESSAGE_LENGTH - 500;

function attach(file: File): OutgoingImage {
  return { file, url: typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '', alt: '' };
}

function release(images: readonly OutgoingImage[]): void {
  if (typeof URL.revokeObjectURL !== 'function') return;
  for (const im of images) if (im.url) URL.revokeObjectURL(im.url);
}

/** The image files of a paste or a drop. */
function imageFiles(list: FileList | null | undefined): File[] {
  return list ? [...list].filter((f) => f.type.startsWith('image/')) : [];
}

/**
 * The message field: Enter sends, Shift+Enter starts a new line, Escape drops
 * a reply or an edit. The draft of each conversation is kept (drafts.ts)
 * while it is typed; an edit works on the message and leaves the draft be.
 * Up to 4 images come with a message — picked, pasted or dropped on the
 * composer — each with a preview, a remove button and a description (the
 * post composer's checks and alt field); an edit changes text only.
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
  const [images, setImages] = useState<OutgoingImage[]>([]);
  /** The image whose description is being written (its index), if any. */
  const [describing, setDescribing] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const contextId = useId();
  const errorId = useId();
  const attachId = useId();
  const imagesRef = useRef(images);
  imagesRef.current = images;
  useEffect(() => () => release(imagesRef.current), []);

  useImperativeHandle(ref, () => ({ focus: () => field.current?.focus() }), []);

  // Another conversation: its own draft.
  const shownFor = useRef(conversationId);
  useEffect(() => {
    if (shownFor.current === conversationId) return;
    shownFor.current = conversationId;
    setText(readDraft(myId, conversationId));
    setError('');
    // Picked images are not kept with the draft: another conversation starts without them.
    release(imagesRef.current);
    setImages([]);
    setDescribing(null);
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
  const withImages = !editing && images.length > 0;
  const canSend = (trimmed !== '' || withImages) && !tooLong && !saving;
  const atMax = images.length >= MAX_MESSAGE_IMAGES;

  const addFiles = (files: File[]) => {
    if (files.length === 0 || editing) return;
    const { accepted, error: problem } = checkNewImages(imagesRef.current.length, files, MAX_MESSAGE_IMAGES, MSG_TOO_MANY_MESSAGE_IMAGES);
    if (accepted.length > 0) setImages((cur) => [...cur, ...accepted.map(attach)]);
    setError(problem ?? '');
  };

  const removeImage = (i: number) => {
    setImages((cur) => {
      const gone = cur[i];
      if (gone) release([gone]);
      return cur.filter((_, k) => k !== i);
    });
    setDescribing(null);
    setError('');
    field.current?.focus();
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = imageFiles(e.clipboardData.files);
    if (files.length === 0 || editing) return;
    // A copied image may come with its address as text: the image is what was meant.
    e.preventDefault();
    addFiles(files);
  };

  const hasFiles = (e: DragEvent) => !editing && [...e.dataTransfer.types].includes('Files');
  const onDragOver = (e: DragEvent<HTMLFormElement>) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    setDragging(false);
    if (!hasFiles(e)) return;
    e.preventDefault();
    addFiles([...e.dataTransfer.files]);
    field.current?.focus();
  };

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
    if (!canSend) return;
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
    onSend(trimmed, images);
    setText('');
    setImages([]);
    setDescribing(null);
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
      <span className="composer__context-snippet">{textOf(replyTo)}</span>
    </>
  ) : null;

  return (
    <form
      className={`composer${dragging ? ' is-dropping' : ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
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
      {withImages && (
        <div className="composer__images">
          <ul className="composer__previews" aria-label="Images to send">
            {images.map((im, i) => (
              <li key={im.url || `${i}-${im.file.name}`} className="composer__preview">
                <img src={im.url || undefined} alt={im.alt.trim() || `Image ${i + 1} to send`} />
                <button type="button" className="composer__remove" aria-label={`Remove image ${i + 1}`} onClick={() => removeImage(i)}>
                  <CloseIcon size={14} />
                </button>
                <button
                  type="button"
                  className={`composer__alt${im.alt.trim() ? ' has-alt' : ''}`}
                  aria-expanded={describing === i}
                  aria-controls={describing === i ? `${attachId}-alt-${i}` : undefined}
                  onClick={() => setDescribing(describing === i ? null : i)}
                >
                  {/* The name keeps the visible "ALT" (speech users say what they see). */}
                  ALT<span className="visually-hidden"> text for image {i + 1}{im.alt.trim() ? ', added' : ''}</span>
                </button>
              </li>
            ))}
          </ul>
          {describing !== null && images[describing] && (
            <AltField
              id={`${attachId}-alt-${describing}`}
              n={describing}
              value={images[describing].alt}
              onChange={(v) => setImages((cur) => cur.map((x, k) => (k === describing ? { ...x, alt: v } : x)))}
            />
          )}
        </div>
      )}
      <div className="composer__row">
        {!editing && (
          <>
            <button
              type="button"
              className="icon-button composer__attach"
              aria-label="Add images"
              aria-describedby={atMax ? `${attachId}-max` : undefined}
              title={atMax ? `Maximum ${MAX_MESSAGE_IMAGES} images` : 'Add images'}
              disabled={atMax}
              onClick={() => fileInput.current?.click()}
            >
              <ImageIcon size={20} />
            </button>
            {atMax && (
              <span id={`${attachId}-max`} className="visually-hidden">
                {MSG_TOO_MANY_MESSAGE_IMAGES}
              </span>
            )}
            <input
              ref={fileInput}
              type="file"
              className="visually-hidden"
              accept={IMAGE_ACCEPT}
              multiple
              tabIndex={-1}
              aria-label="Add images"
              data-testid="message-images-input"
              onChange={(e) => {
                addFiles([...(e.target.files ?? [])]);
                e.target.value = '';
                field.current?.focus();
              }}
            />
          </>
        )}
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
          onPaste={onPaste}
          aria-describedby={[context ? contextId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined}
          aria-invalid={tooLong || undefined}
          enterKeyHint="send"
        />
        <button type="submit" className="button button--primary composer__send" disabled={!canSend} aria-label={editing ? 'Save edit' : 'Send'}>
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
