import { useAtomValue, useSetAtom } from 'jotai';
import { productNameAtom } from '../../app/config';
import { Modal } from '../../ui/Modal';
import { SearchIcon } from '../../ui/icons';
import { searchOpenAtom, setSearchOpenAtom } from './searchAtoms';

/**
 * The search overlay's frame (spec §2.10). Searching users, posts and
 * comments arrives with the search issue; until then the panel says so.
 */
export function SearchPanel() {
  const open = useAtomValue(searchOpenAtom);
  const setOpen = useSetAtom(setSearchOpenAtom);
  const productName = useAtomValue(productNameAtom);
  return (
    <Modal open={open} onClose={() => setOpen(false)} title="Search" size="md">
      <div className="placeholder-panel">
        <div className="placeholder-panel__field">
          <SearchIcon size={18} />
          <input className="field__input" type="search" placeholder={`Search ${productName}...`} disabled aria-label={`Search ${productName}`} />
        </div>
        <p className="placeholder-panel__title">Search is coming soon</p>
        <p className="muted">You'll be able to find people, posts and comments here.</p>
      </div>
    </Modal>
  );
}
