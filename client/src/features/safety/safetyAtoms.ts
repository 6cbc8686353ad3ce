import { atom } from 'jotai';
import { postsByIdReadAtom, removePostAtom } from '../posts/postsAtoms';
import { blockUser } from './safetyApi';

/** Blocks a person and drops every post of theirs already on screen. */
export const blockAuthorAtom = atom(null, async (get, set, authorId: string) => {
  await blockUser(authorId);
  for (const [id, post] of Object.entries(get(postsByIdReadAtom))) {
    if (post.author.id === authorId) set(removePostAtom, id);
  }
});
