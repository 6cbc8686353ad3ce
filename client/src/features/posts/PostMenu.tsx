import { useRef, useState } from 'react';
import { EditIcon, LinkIcon, MoreIcon, TrashIcon } from '../../ui/icons';
import { useOutsideClick } from '../../ui/useOutsideClick';

/** Spec §2.13: 'Copy link' for everyone, 'Edit post' and 'Delete post' for the author; closes on an outside click. */
export function PostMenu({
  canDelete,
  onCopyLink,
  onDelete,
  onEdit,
}: {
  canDelete: boolean;
  onCopyLink: () => void;
  onDelete: () => void;
  onEdit?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useOutsideClick(ref, open, () => setOpen(false));
  const pick = (fn: () => void) => () => {
    setOpen(false);
    fn();
  };
  return (
    <div ref={ref} className="post-menu">
      <button type="button" className="icon-button" aria-label="Post options" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        <MoreIcon />
      </button>
      {open && (
        <div className="post-menu__list" role="menu">
          <button type="button" role="menuitem" className="post-menu__item" onClick={pick(onCopyLink)}>
            <LinkIcon size={18} /> Copy link
          </button>
          {canDelete && onEdit && (
            <button type="button" role="menuitem" className="post-menu__item" onClick={pick(onEdit)}>
              <EditIcon size={18} /> Edit post
            </button>
          )}
          {canDelete && (
            <button type="button" role="menuitem" className="post-menu__item post-menu__item--danger" onClick={pick(onDelete)}>
              <TrashIcon size={18} /> Delete post
            </button>
          )}
        </div>
      )}
    </div>
  );
}
