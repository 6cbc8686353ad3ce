import { atom } from 'jotai';
import { postsByIdReadAtom, removePostAtom } from '../posts/postsAtoms';
import { blockUser, muteUser } from './safetyApi';

/** Blocks a person and drops every post of theirs already on screen. */
export const blockAuthorAtom = atom(null, async (get, set, authorId: string) => {
  await blockUser(authorId);
  for (const [id, post] of Object.entries(get(postsByIdReadAtom))) {
    if (post.author.id === authorId) set(removePostAtom, id);
  }
});

/** Mutes a person (they are not told) and drops their posts from the screen; the feed leaves them out from now on. */
export const muteAuthorAtom = atom(null, async (get, set, authorId: string) => {
  await muteUser(authorId);
  for (const [id, post] of Object.entries(get(postsByIdReadAtom))) {
    if (post.author.id === authorId) set(removePostAtom, id);
  }
});
