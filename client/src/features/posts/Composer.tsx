import { useAtomValue } from 'jotai';
import { Avatar } from '../../ui/Avatar';
import { ImageIcon } from '../../ui/icons';
import { currentUserAtom } from '../auth/authAtoms';

/** The feed's post composer: a prompt that opens the create-post dialog. */
export function Composer({ onOpen }: { onOpen: () => void }) {
  const me = useAtomValue(currentUserAtom);
  if (!me) return null;
  const first = me.name.split(/\s+/)[0];
  return (
    <div className="card composer">
      <div className="composer__row">
        <Avatar name={me.name} url={me.avatar.thumbUrl || me.avatar.url} variants={me.avatar.variants} />
        <button type="button" className="composer__prompt" onClick={onOpen}>
          What's on your mind, {first}?
        </button>
      </div>
      <div className="composer__actions">
        <button type="button" className="post-action" onClick={onOpen}>
          <ImageIcon size={18} className="composer__photo-icon" />
          <span>Photo</span>
        </button>
        <button type="button" className="button button--primary button--sm" onClick={onOpen}>
          Create Post
        </button>
      </div>
    </div>
  );
}
