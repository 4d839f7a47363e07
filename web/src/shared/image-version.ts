import { useSyncExternalStore } from 'react';

/**
 * Bumped after a profile image upload. The server may keep the same file name for the new image, so
 * every place showing the user's image (footer, profile) appends this to its URL to skip the cache.
 */
let version = 0;
const listeners = new Set<() => void>();

export function bumpImageVersion(): void {
  version = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useImageVersion(): number {
  return useSyncExternalStore(
    subscribe,
    () => version,
    () => 0,
  );
}
