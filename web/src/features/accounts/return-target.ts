/**
 * Where to go after login: the returnto param when it is a path inside this app, else /communities.
 * Absolute or protocol-relative URLs are refused so a crafted link cannot send users elsewhere.
 */
export function returnTarget(returnto: string | null): string {
  if (returnto?.startsWith('/') && !returnto.startsWith('//') && !returnto.startsWith('/\\')) {
    return returnto;
  }
  return '/communities';
}
