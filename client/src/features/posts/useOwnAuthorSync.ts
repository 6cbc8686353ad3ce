// A changed name or picture shows at once on the signed-in user's posts
// already on screen (issue 16 #9), not only after a reload.

import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import type { UserSummary } from '../../api/models';
import { currentUserAtom } from '../auth/authAtoms';
import { postsByIdReadAtom, upsertPostsAtom } from './postsAtoms';

/** Rewrites the author of every cached post by `me` whose name, picture or ID line differ. */
export const syncOwnAuthorAtom = atom(null, (get, set, me: UserSummary) => {
  const stale = Object.values(get(postsByIdReadAtom)).filter(
    (p) =>
      p.author.id === me.id &&
      (p.author.name !== me.name || p.author.avatar.url !== me.avatar.url || p.author.universityId !== me.universityId),
  );
  if (stale.length === 0) return;
  set(
    upsertPostsAtom,
    stale.map((p) => ({ ...p, author: { ...p.author, name: me.name, avatar: me.avatar, universityId: me.universityId } })),
  );
});

/** Keeps own posts' author in step with the signed-in user. */
export function useOwnAuthorSync(): void {
  const me = useAtomValue(currentUserAtom);
  const sync = useSetAtom(syncOwnAuthorAtom);
  const id = me?.id;
  const name = me?.name;
  const avatarUrl = me?.avatar.url;
  const universityId = me?.universityId;
  useEffect(() => {
    if (!me) return;
    sync(me);
    // Only when what a post card shows of me changes.
  }, [id, name, avatarUrl, universityId, sync]);
}
