// Business constants of docs/product.md §9, as written there.

/** HTTP timeout for ordinary calls (docs/product.md §9). */
export const HTTP_TIMEOUT_MS = 15_000;
/** Timeout for an upload (post with images, avatar, cover) (docs/product.md §9). */
export const UPLOAD_TIMEOUT_MS = 60_000;
/** Socket connect timeout (docs/product.md §9). */
export const SOCKET_CONNECT_TIMEOUT_MS = 10_000;
/** The socket's test ping goes out this long after connecting (docs/product.md §9). */
export const SOCKET_TEST_PING_MS = 3_000;
/** Below this width the app uses its mobile layout (docs/product.md §9). */
export const MOBILE_BREAKPOINT_PX = 768;
/** Product name used until (or unless) GET /api/config answers. */
export const DEFAULT_PRODUCT_NAME = 'Campus';

/** One-time codes: length and lifetime shown to the user (docs/product.md §9). */
export const OTP_LENGTH = 6;
export const OTP_EXPIRY_MINUTES = 10;
/** Resend cooldown in seconds (docs/product.md §9). */
export const RESEND_COOLDOWN_S = 60;
/** After a successful reset the login screen returns after this long (docs/product.md §9). */
export const RESET_REDIRECT_MS = 2_000;
/** How long the resend success (and, in the reset flow, failure) message stays (docs/product.md §8.2). */
export const RESEND_MESSAGE_MS = 5_000;
export const MIN_PASSWORD_LENGTH = 8;

/** Posts (docs/product.md §9). */
export const MAX_POST_LENGTH = 2000;
/** Issue 16: an image's description (alt text), as the server bounds it. */
export const MAX_ALT_LENGTH = 1000;
export const MAX_POST_IMAGES = 3;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const POST_RETRIES = 3;
export const POST_RETRY_DELAY_MS = 2_000;
export const SHARE_PREVIEW_CHARS = 100;
export const COPIED_CONFIRMATION_MS = 2_000;
export const SINGLE_IMAGE_MAX_HEIGHT_PX = 500;
export const GALLERY_CAROUSEL_HEIGHT_PX = 400;
/** A post's several images in the feed: the carousel's height (px; at most 90 % of the screen's width). */
export const POST_CAROUSEL_HEIGHT_PX = 480;

/** Feed (docs/product.md §9). Page size is ours: the spec leaves it open. */
export const FEED_SUGGESTIONS = 3;
export const FEED_SKELETON_CARDS = 3;
export const FEED_PAGE_SIZE = 10;
export const COMMENTS_PAGE_SIZE = 20;

/** Pull-to-refresh and infinite scroll (docs/product.md §9). */
export const PULL_THRESHOLD_PX = 67;
export const PULL_MAX_PX = 95;
export const FETCH_MORE_THRESHOLD_PX = 100;

/** Onboarding (docs/product.md §9). */
export const SUGGESTION_RETRY_MS = 1_000;
/**
 * docs/product.md §4 retries until some arrive. The first SUGGESTION_FAST_ATTEMPTS go out
 * every 1 s as written; after that a brand-new campus may have nobody to
 * suggest for a while, so the wait doubles up to SUGGESTION_RETRY_MAX_MS.
 */
export const SUGGESTION_FAST_ATTEMPTS = 30;
export const SUGGESTION_RETRY_MAX_MS = 30_000;
export const FOLLOW_SIMULATED_SAVE_MS = 1_000;

/** Unread badge caps at 9+ (docs/product.md §9). */
export const UNREAD_BADGE_CAP = 9;
/** Avatar sizes (docs/product.md §9). */
export const AVATAR_SIZE = 40;
export const AVATAR_SIZE_SEARCH = 32;

/** Image types accepted for posts, avatars and covers (docs/product.md §5). */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Where the server answers the JSON API (docs/protocol.md §1): api/http.ts and index.html's bootstrap. */
export const API_BASE = '/api';

// What a failed request tells the user, word for word from the product spec
// (api/http picks one; the chunk boundary shows the network ones too).
export const MSG_TIMEOUT = 'Request timed out. The server might be busy. Please try again later.';
export const MSG_NETWORK = 'Network error. Please check your connection or try again later.';
export const MSG_OFFLINE = 'You are offline. Please check your internet connection and try again.';
export const MSG_SERVER = 'Server error. Please try again later.';
export const MSG_BAD_REQUEST = 'Invalid request';
export const MSG_OTHER = 'An error occurred';
