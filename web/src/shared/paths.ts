/** Addresses of the app's screens (spec §2), built in one place so every link agrees. */
const seg = encodeURIComponent;

/** The plain-words page on points, ranks and the speed bonus (linked from games and results). */
export const SCORING_PATH = '/scoring';

export function communityPath(endpoint: string): string {
  return `/communities/${seg(endpoint)}`;
}

export function profilePath(username: string): string {
  return `/profile?u=${seg(username)}`;
}

/** A /login link that brings the user back to `path` afterwards. */
export function loginLinkFor(path: string): string {
  return `/login?returnto=${seg(path)}`;
}

export function seriesPath(community: string, series: string): string {
  return `/play/${seg(community)}/${seg(series)}`;
}

interface GameRef {
  uuid: string;
  community: { endpoint: string };
  series: { endpoint: string };
}

export function gamePath(game: GameRef): string {
  return `${seriesPath(game.community.endpoint, game.series.endpoint)}/${seg(game.uuid)}`;
}

export function questionsPath(game: GameRef, q: number): string {
  return `${gamePath(game)}/questions?q=${q}`;
}

export type ResultsTab = 'leaderboard' | 'communityLeaderboard' | 'breakdown';

export function resultsPath(game: GameRef, tab: ResultsTab = 'leaderboard'): string {
  return `${gamePath(game)}/results/${tab}`;
}
