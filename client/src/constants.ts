// Business constants of spec §9, as written there. Later issues add theirs here.

/** HTTP timeout for ordinary calls (spec §9). */
export const HTTP_TIMEOUT_MS = 15_000;
/** Timeout for a post upload with images (spec §9). */
export const UPLOAD_TIMEOUT_MS = 60_000;
/** Below this width the app uses its mobile layout (spec §9). */
export const MOBILE_BREAKPOINT_PX = 768;
/** Product name used until (or unless) GET /api/config answers. */
export const DEFAULT_PRODUCT_NAME = 'Campus';
