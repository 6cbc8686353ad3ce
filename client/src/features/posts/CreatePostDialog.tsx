import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useId, useRef, useState } from 'react';
import { MAX_POST_IMAGES, MAX_POST_LENGTH } from '../../constants';
import { Avatar } from '../../ui/Avatar';
import { CloseIcon, ImageIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { currentUserAtom } from '../auth/authAtoms';
import {
  checkNewImages,
  MSG_MAX_IMAGES_TOOLTIP,
  retryingMessage,
  submitWithRetries,
  validatePostDraft,
} from './postDialogLogic';
import { MentionTextarea } from '../mentions/MentionTextarea';
import { AltField } from './AltField';
import { createPost } from './postsApi';
import { postCreatedAtom } from './postsAtoms';
import './CreatePostDialog.css';

interface Attachment {
  key: number;
  file: File;
  url: string;
  /** Its description (alt text), sent with it (issue 16). */
  alt: string;
}

let nextKey = 1;

function preview(file: File): Attachment {
  const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '';
  return { key: nextKey++, file, url, alt: '' };
}

function revoke(a: Attachment): void {
  if (a.url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(a.url);
}

/**
 * docs/product.md §2.13 create-post dialog. With `group`, the post goes into that group
 * (issue 18) and the dialog says where.
 */
export function CreatePostDialog({
  open,
  onClose,
  group,
}: {
  open: boolean;
  onClose: () => void;
  group?: { id: string; name: string };
}) {
  const me = useAtomValue(currentUserAtom);
  const postCreated = useSetAtom(postCreatedAtom);
  const [content, setContent] = useState('');
  const [images, setImages] = useState<Attachment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textId = useId();
  const fileId = useId();
  const imagesRef = useRef(images);
  imagesRef.current = images;
  useEffect(() => () => imagesRef.current.forEach(revoke), []);

  const atMax = images.length >= MAX_POST_IMAGES;
  const canPost = (content.trim() !== '' || images.length > 0) && !submitting;
  // docs/product.md §2.13: the author's university ID under the name, fallback 'Student' (faculty read 'Faculty').
  const idLine = me?.universityId || (me?.role === 'faculty' ? 'Faculty' : 'Student');

  const addFiles = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const { accepted, error: problem } = checkNewImages(images.length, [...list]);
    if (accepted.length > 0) setImages((cur) => [...cur, ...accepted.map(preview)]);
    setError(problem);
  };

  const removeImage = (key: number) => {
    setImages((cur) => {
      const gone = cur.find((a) => a.key === key);
      if (gone) revoke(gone);
      return cur.filter((a) => a.key !== key);
    });
    setError(null);
  };

  const setAlt = (key: number, alt: string) => setImages((cur) => cur.map((a) => (a.key === key ? { ...a, alt } : a)));

  const reset = () => {
    images.forEach(revoke);
    setImages([]);
    setContent('');
    setError(null);
    setProgress(null);
  };

  const close = () => {
    if (submitting) return; // docs/product.md §2.13: closing is blocked while submitting.
    onClose();
  };

  const submit = async () => {
    const invalid = validatePostDraft(content, images.length);
    if (invalid) {
      setError(invalid);
      return;
    }
    setSubmitting(true);
    setError(null);
    const files = images.map((a) => a.file);
    const alts = images.map((a) => a.alt);
    const withImages = files.length > 0;
    try {
      const post = await submitWithRetries(
        () => {
          if (withImages) setProgress(0);
          return createPost({ content: content.trim(), images: files, alts, groupId: group?.id }, withImages ? setProgress : undefined);
        },
        { onRetry: (n) => setError(retryingMessage(n)) },
      );
      postCreated(post);
      reset();
      setSubmitting(false);
      onClose();
    } catch (err) {
      setSubmitting(false);
      setProgress(null);
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <Modal open={open} onClose={close} closable={!submitting} title="Create post" size="md" className="create-post">
      <form
        className="create-post__form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="create-post__author">
          {me && <Avatar name={me.name} url={me.avatar.thumbUrl || me.avatar.url} variants={me.avatar.variants} />}
          <div>
            <p className="create-post__name">{me?.name}</p>
            <p className="create-post__id">{group ? `Posting in ${group.name}` : idLine}</p>
          </div>
        </div>

        <label htmlFor={textId} className="visually-hidden">
          Post text
        </label>
        <MentionTextarea
          id={textId}
          className="create-post__text"
          placeholder={`What's on your mind${me ? `, ${me.name.split(/\s+/)[0]}` : ''}?`}
          maxLength={MAX_POST_LENGTH}
          value={content}
          onValueChange={setContent}
          disabled={submitting}
          data-autofocus
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              if (canPost) void submit();
            }
          }}
        />
        <p className="create-post__counter" aria-live="polite">
          {content.length}/{MAX_POST_LENGTH}
        </p>

        {images.length > 0 && (
          <ul className="create-post__previews create-post__previews--with-alt">
            {images.map((a, n) => (
              <li key={a.key} className="create-post__attachment">
                <div className="create-post__preview">
                  <img src={a.url} alt={a.alt.trim() || `Selected image ${n + 1}`} />
                  <button
                    type="button"
                    className="create-post__remove"
                    onClick={() => removeImage(a.key)}
                    disabled={submitting}
                    aria-label={`Remove image ${n + 1}`}
                  >
                    <CloseIcon size={14} />
                  </button>
                </div>
                <AltField
                  id={`${fileId}-alt-${a.key}`}
                  n={n}
                  value={a.alt}
                  onChange={(v) => setAlt(a.key, v)}
                  disabled={submitting}
                />
              </li>
            ))}
          </ul>
        )}

        <div className="create-post__tools">
          <span className="create-post__tools-label">Add to your post</span>
          <span className="tooltip-host">
            <button
              type="button"
              className="icon-button create-post__add-image"
              onClick={() => fileInput.current?.click()}
              disabled={atMax || submitting}
              aria-label="Add images"
              aria-describedby={atMax ? `${fileId}-max` : undefined}
              title={atMax ? MSG_MAX_IMAGES_TOOLTIP : 'Add images'}
            >
              <ImageIcon />
            </button>
            {atMax && (
              <span id={`${fileId}-max`} className="tooltip" role="tooltip">
                {MSG_MAX_IMAGES_TOOLTIP}
              </span>
            )}
          </span>
          <input
            id={fileId}
            ref={fileInput}
            className="visually-hidden"
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            multiple
            tabIndex={-1}
            aria-label="Add images"
            onChange={(e) => {
              addFiles(e.target.files);
              e.target.value = '';
            }}
            data-testid="post-images-input"
          />
        </div>

        {progress !== null && submitting && (
          <div className="create-post__progress" role="status">
            <div className="progress">
              <div className="progress__bar" style={{ width: `${progress}%` }} />
            </div>
            <span>Uploading… {progress}%</span>
          </div>
        )}

        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}

        <button type="submit" className="button button--primary button--block" disabled={!canPost}>
          {submitting ? 'Posting…' : 'Post'}
        </button>
      </form>
    </Modal>
  );
}
