export { PostCard } from './PostCard';
export { PostPage } from './PostPage';
export { CreatePostDialog } from './CreatePostDialog';
export { Composer } from './Composer';
export type { Post, Comment, PostImage } from './model';
export {
  postAtom,
  postsByIdReadAtom,
  createdPostIdsAtom,
  upsertPostsAtom,
  removePostAtom,
  postCreatedAtom,
  toggleLikeAtom,
  deletePostAtom,
  existingIds,
} from './postsAtoms';
export { fetchUserPosts } from './postsApi';
