// Business constants from spec §9. Server and web both read them from here.
export const USERNAME_MIN = 6;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const GENDER_MAX = 20;
export const MIN_AGE = 12;
export const FIELD_CHECK_DEBOUNCE_MS = 1000;
export const SMALL_COMMUNITY_MAX = 50;
export const COUNTDOWN_THRESHOLD_S = 180;
export const COUNTDOWN_REFRESH_MS = 500;
export const LEADERBOARD_SCROLL_PX = 300;
export const LEADERBOARD_PAGE_SIZE = 50;
export const STATS_BUCKETS = 10;
export const SOCKET_RECONNECT_MIN_MS = 1000;
export const SOCKET_RECONNECT_MAX_MS = 5000;
export const SOCKET_TIMEOUT_MS = 20000;
/** Largest accepted upload, before re-encoding. */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
