import { useRef, useState } from 'react';
import { EditIcon, LinkIcon, MoreIcon, TrashIcon } from '../../ui/icons';
import { useOutsideClick } from '../../ui/useOutsideClick';
import { useMenuKeys } from '../../ui/useMenuKeys';

/** An extra entry of a post's menu (a group admin's Pin post). */
export interface PostMenuExtra {
  label: string;
  onSelect: () => void;
}

/**
 * docs/product.md §2.13: 'Copy link' for everyone, 'Edit post' and 'Delete post' for the
 * author (and Delete for a group's owner and admins); closes on an outside click.
 */
export function PostMenu({
  canDelete,
  onCopyLink,
  onDelete,
  onReport,
  onMute,
  onBlock,
  onEdit,
  extra = [],
}: {
  canDelete: boolean;
  onCopyLink: () => void;
  onDelete: () => void;
  /** Others' posts: report the post, block its author (issue 17). */
  onReport?: () => void;
  onMute?: () => void;
  onBlock?: () => void;
  onEdit?: () => void;
  extra?: readonly PostMenuExtra[];
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useOutsideClick(ref, open, () => setOpen(false));
  useMenuKeys(ref, open, () => setOpen(false));
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
          {extra.map((x) => (
            <button key={x.label} type="button" role="menuitem" className="post-menu__item" onClick={pick(x.onSelect)}>
              {x.label}
            </button>
          ))}
          {onReport && (
            <button type="button" role="menuitem" className="post-menu__item" onClick={pick(onReport)}>
              Report post
            </button>
          )}
          {onMute && (
            <button type="button" role="menuitem" className="post-menu__item" onClick={pick(onMute)}>
              Mute author
            </button>
          )}
          {onBlock && (
            <button type="button" role="menuitem" className="post-menu__item post-menu__item--danger" onClick={pick(onBlock)}>
              Block author
            </button>
          )}
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
