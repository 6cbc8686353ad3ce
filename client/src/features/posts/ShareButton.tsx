import { useEffect, useRef, useState } from 'react';
import { COPIED_CONFIRMATION_MS } from '../../constants';
import { ShareIcon } from '../../ui/icons';
import type { Post } from './model';
import { MSG_COPIED, MSG_LINK_COPIED, sharePost } from './share';

/** docs/product.md §4 Share: the share sheet, else copy the link; 'Copied!' with its tooltip for 2 s. */
export function ShareButton({ post }: { post: Pick<Post, 'id' | 'content' | 'author'> }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onClick = async () => {
    const outcome = await sharePost(post);
    if (outcome === 'copied') {
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_CONFIRMATION_MS);
    } else if (outcome === 'failed') {
      console.error('Could not share or copy the post link');
    }
  };

  return (
    <span className="tooltip-host">
      <button type="button" className={`post-action${copied ? ' is-done' : ''}`} onClick={() => void onClick()} aria-describedby={copied ? `copied-${post.id}` : undefined}>
        <ShareIcon size={18} />
        <span>{copied ? MSG_COPIED : 'Share'}</span>
      </button>
      {copied && (
        <span id={`copied-${post.id}`} className="tooltip tooltip--open" role="tooltip">
          {MSG_LINK_COPIED}
        </span>
      )}
    </span>
  );
}
