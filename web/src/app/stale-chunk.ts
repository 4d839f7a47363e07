/**
 * A screen's chunk fails to load when the app was deployed again while the page was open: the old
 * page asks for file names the new build no longer has. Browsers word it differently.
 */
export function isStaleChunk(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Loading chunk/i.test(
    message,
  );
}
