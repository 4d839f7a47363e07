/** URLs of the play area (spec §2), built in one place so every link agrees. */
const seg = encodeURIComponent;

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
