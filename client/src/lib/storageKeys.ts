// The web storage keys (lib/storage.ts has the helpers), in a module of
// their own: the build (vite.config.ts, for index.html's bootstrap) reads
// them without the DOM.

export const STORAGE_KEYS = {
  /** Bearer token (docs/product.md §6: every non-auth call carries it). */
  token: 'campus.token',
  /** Saved auth state: {user} (docs/product.md §4, validated at start-up). */
  auth: 'campus.auth',
  /** Current page name (docs/product.md §2.2). */
  page: 'campus.page',
  /** Page to return to from settings (docs/product.md §2.2, §2.16). */
  previousPage: 'campus.previousPage',
  /** The profile being viewed (docs/product.md §2.2). */
  viewedUserId: 'campus.viewedUserId',
  /** Active profile tab (docs/product.md §2.2). */
  profileTab: 'campus.profileTab',
  /** Friends tab to open next, read once then consumed (docs/product.md §2.2). */
  friendsTab: 'campus.friendsTab',
  /** Where the signed-up user is in onboarding (reload resumes there). */
  onboarding: 'campus.onboarding',
  /** Signup handoff (docs/product.md §3): what the signup form collected, for profile setup. */
  signup: 'campus.signup',
  /** Profile like counts by user id (docs/product.md §3 local storage extras). */
  profileLikes: 'campus.profileLikes',
  /** Profile like flags keyed by `${currentUserId}:${targetId}` (docs/product.md §3 local storage extras). */
  userProfileLikes: 'campus.userProfileLikes',
  /** Theme choice (features/theme owns it). */
  theme: 'campus.theme',
  /** When this tab last reloaded because a chunk would not load (ui/ChunkBoundary): ms since the epoch. */
  chunkReload: 'campus.chunkReload',
  /**
   * Unsent message drafts (issue 29): {userId, drafts: {conversationId: text}}, for the
   * signed-in user only; cleared at sign-out with the rest of the account's state.
   */
  messageDrafts: 'campus.messageDrafts',
  /** Why the server signed this tab out (a suspension), for the login page to say once. */
  signOutNotice: 'campus.signOutNotice',
  /**
   * What the signed-in user last read (issue 27 item 5): the feed's first page,
   * the last profiles and the notifications, shown when offline;
   * {v, userId, entries}. Cleared at sign-out.
   */
  offline: 'campus.offline',
  /** How many times this device opened the feed (a page load each), for the install nudge (issue 27 item 6). */
  installVisits: 'campus.installVisits',
  /** When the feed's install nudge was dismissed (ms since the epoch). */
  installDismissed: 'campus.installDismissed',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];
