/** A stand-in origin: what a target resolves against, to tell a path of this app from another site. */
const HERE = 'https://hunch.invalid';

/**
 * Where to go after login: the returnto param when it is a path inside this app, else /communities.
 * It is read as the browser's URL parser reads it, which drops tabs and line breaks and takes a
 * backslash for a slash, so '/\t/evil.example' is the other site it would be and is refused.
 */
export function returnTarget(returnto: string | null): string {
  if (!returnto?.startsWith('/')) return '/communities';
  let url: URL;
  try {
    url = new URL(returnto, HERE);
  } catch {
    return '/communities';
  }
  // Dot segments resolve away ('/.//site' is '//site'): a path that starts with two slashes is
  // another site to whatever reads it next, so it is refused too.
  if (url.origin !== HERE || url.pathname.startsWith('//')) return '/communities';
  return `${url.pathname}${url.search}${url.hash}`;
}
