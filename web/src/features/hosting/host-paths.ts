/** Addresses of the host console's screens (hosting spec §2), built in one place. */
const seg = encodeURIComponent;

export const HOST_HOME = '/host';

export function hostCommunityPath(community: string): string {
  return `/host/${seg(community)}`;
}

export function hostSeriesPath(community: string, series: string): string {
  return `${hostCommunityPath(community)}/${seg(series)}`;
}

export function hostGamePath(community: string, series: string, uuid: string): string {
  return `${hostSeriesPath(community, series)}/${seg(uuid)}`;
}

/** The editor of a game not saved yet; `from` names the game (by key) it duplicates. */
export const NEW_GAME = 'new';

export function newGamePath(community: string, series: string, from?: string): string {
  const base = hostGamePath(community, series, NEW_GAME);
  return from ? `${base}?from=${seg(from)}` : base;
}
