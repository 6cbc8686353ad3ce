import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons';
// Its styles (Modal.css) are in the main stylesheet: main.tsx imports them.

export interface ModalProps {
  open: boolean;
  /** Escape, the close button and a click outside call it, unless `closable` is false. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** False blocks every way of closing (e.g. while a post is being submitted). */
  closable?: boolean;
  className?: string;
  /** Centre (default) or a sheet from the bottom on narrow screens. */
  size?: 'sm' | 'md' | 'lg';
}

const FOCUSABLE =
  'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]';

/**
 * What Tab can reach inside el, in order: not tabindex -1 (the hidden file
 * input of the composer is clicked through its label, never tabbed to), not
 * hidden, not clipped to nothing.
 */
export function tabbables(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (n) =>
      n.tabIndex >= 0 &&
      n.getAttribute('tabindex') !== '-1' &&
      !n.closest('[hidden], [inert]') &&
      !n.classList.contains('visually-hidden'),
  );
}

/** A dialog over the page: labelled, focus kept inside, focus returned on close. */
export function Modal({ open, onClose, title, children, closable = true, className, size = 'md' }: ModalProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closableRef = useRef(closable);
  const onCloseRef = useRef(onClose);
  closableRef.current = closable;
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    const first = panel?.querySelector<HTMLElement>('[data-autofocus]') ?? (panel ? tabbables(panel)[0] : undefined);
    (first ?? panel)?.focus();
    document.body.classList.add('modal-open');

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        if (closableRef.current) onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab' || !panelRef.current) return;
      // Keep Tab inside the dialog, also when focus has somehow left it.
      const items = tabbables(panelRef.current);
      if (items.length === 0) return;
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      const active = document.activeElement;
      if (!active || !items.includes(active as HTMLElement)) {
        e.preventDefault();
        (e.shiftKey ? lastItem : firstItem).focus();
      } else if (e.shiftKey && active === firstItem) {
        e.preventDefault();
        lastItem.focus();
      } else if (!e.shiftKey && active === lastItem) {
        e.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (!document.querySelector('.modal__backdrop')) document.body.classList.remove('modal-open');
      previouslyFocused?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  return createPortal(
    <div
      className="modal__backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && closable) onClose();
      }}
    >
      <div
        ref={panelRef}
        className={['modal', `modal--${size}`, className].filter(Boolean).join(' ')}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        {/* A div, not <header>: outside a landmark a <header> is a second page banner. */}
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button
            type="button"
            className="icon-button modal__close"
            onClick={onClose}
            disabled={!closable}
            aria-label="Close"
          >
            <CloseIcon />
          </button>
        </div>
        <div className="modal__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
