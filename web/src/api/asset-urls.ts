/** Static images are served by the server under /assets (spec §3). */
export const DEFAULT_USER_IMAGE = '_.jpg';

export function communityImageUrl(image: string): string {
  return `/assets/communities/${encodeURIComponent(image)}`;
}

export function gameImageUrl(image: string): string {
  return `/assets/games/${encodeURIComponent(image)}`;
}

export function questionImageUrl(image: string): string {
  return `/assets/questions/${encodeURIComponent(image)}`;
}

export function userImageUrl(image: string | null | undefined, version?: number): string {
  const url = `/assets/users/${encodeURIComponent(image || DEFAULT_USER_IMAGE)}`;
  // An upload may keep the same file name; the version defeats the browser's image cache.
  return version ? `${url}?v=${version}` : url;
}
