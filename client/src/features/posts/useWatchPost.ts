import { useSetAtom } from 'jotai';
import { useEffect, type RefObject } from 'react';
import { unwatchPostAtom, watchPostAtom } from './watchAtoms';

/**
 * Watches a post over the socket while its card is on screen (docs/protocol.md §2.3:
 * watch/unwatch the posts on screen). Without IntersectionObserver, while mounted.
 */
export function useWatchPost(ref: RefObject<HTMLElement | null>, postId: string, enabled = true): void {
  const watch = useSetAtom(watchPostAtom);
  const unwatch = useSetAtom(unwatchPostAtom);
  useEffect(() => {
    if (!enabled) return;
    const el = ref.current;
    let watching = false;
    const set = (on: boolean) => {
      if (on === watching) return;
      watching = on;
      if (on) watch(postId);
      else unwatch(postId);
    };
    if (!el || typeof IntersectionObserver !== 'function') {
      set(true);
      return () => set(false);
    }
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) set(e.isIntersecting);
      },
      // A little ahead of the viewport, so counts are live by the time the card scrolls in.
      { rootMargin: '200px 0px' },
    );
    io.observe(el);
    return () => {
      io.disconnect();
      set(false);
    };
  }, [ref, postId, enabled, watch, unwatch]);
}
