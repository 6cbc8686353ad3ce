// Block and Mute in a post's menu: the safety feature's call, then the
// author's posts leave the screen. Posts' own, since it changes the posts on
// screen (safety sits below posts and knows nothing of them).

import { atom } from 'jotai';
import { blockUser, muteUser } from '../safety/safetyApi';
import { postsByIdReadAtom, removePostAtom } from './postsAtoms';

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
