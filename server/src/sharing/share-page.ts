import type { Game } from '@hunch/contract';
import { stateLabel } from '@hunch/rules';
import type { SharedResult } from './share-queries';

const seg = encodeURIComponent;

/** The game's page in the web app (spec §2). */
export const gamePagePath = (g: Pick<Game, 'uuid' | 'community' | 'series'>) =>
  `/play/${seg(g.community.endpoint)}/${seg(g.series.endpoint)}/${seg(g.uuid)}`;

export const shareGamePath = (uuid: string) => `/share/game/${seg(uuid)}`;
export const shareResultPath = (uuid: string, username: string) =>
  `/share/result/${seg(uuid)}/${seg(username)}`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const count = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** 'Mon, Dec 1, 18:00 UTC': a preview is read anywhere, so the time says its zone. */
export function utcWhen(iso: string): string {
  const d = new Date(iso);
  const day = d.toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  return `${day}, ${d.toISOString().slice(11, 16)} UTC`;
}

/** What a preview says about a game's state: when it opens, until when to play, or its results. */
export function gameLine(game: Game): string {
  const questions = `${game.question_count} ${game.question_count === 1 ? 'question' : 'questions'}`;
  const players = `${count(game.participants)} ${game.participants === 1 ? 'player' : 'players'}`;
  switch (game.state) {
    case 'closed':
      return `${game.synchronous ? 'Live game' : questions}: opens ${utcWhen(game.schedule.open)}`;
    case 'open':
      return game.synchronous
        ? `Live game: starts ${utcWhen(game.schedule.standby)}`
        : `${stateLabel(game.state, false)} until ${utcWhen(game.schedule.standby)}: ${questions}`;
    case 'complete':
      return `Results are in: ${players}`;
    default:
      return `${stateLabel(game.state, game.synchronous)}: ${players}`;
  }
}

export interface ShareCard {
  title: string;
  description: string;
  /** The share link itself (og:url), its preview picture and the page a person is sent to: paths. */
  path: string;
  imagePath: string;
  targetPath: string;
}

export function gameCard(game: Game): ShareCard {
  const path = shareGamePath(game.uuid);
  return {
    title: `${game.name} · ${game.community.name}`,
    description: `${gameLine(game)}. Vote, guess the crowd and predict the numbers in ${game.series.name} on Hunch.`,
    path,
    imagePath: `${path}/image.png`,
    targetPath: gamePagePath(game),
  };
}

export function resultCard(game: Game, result: SharedResult): ShareCard {
  const path = shareResultPath(game.uuid, result.username);
  return {
    title: `${result.username} in ${game.name}`,
    description: `${result.username} scored ${count(result.score)} points and ranked ${count(result.rank)} of ${count(result.players)} in ${game.name} (${game.community.name}). Can you beat that on Hunch?`,
    path,
    imagePath: `${path}/image.png`,
    targetPath: gamePagePath(game),
  };
}

/**
 * The page behind a share link: Open Graph and Twitter tags for the preview a chat or a social
 * site draws, then a link on to the game, which a browser follows at once (a meta refresh: the
 * CSP allows no inline script). The link goes by the login page with the game as its return
 * target: a visitor who is signed in is sent straight on, and one who is not (most people a link
 * is shared with) logs in and lands on the game rather than on /communities, where the game pages
 * send visitors (spec §2).
 */
export function sharePage(card: ShareCard, origin: string): string {
  const e = escapeHtml;
  const url = origin + card.path;
  const image = origin + card.imagePath;
  const target = `${origin}/login?returnto=${encodeURIComponent(card.targetPath)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(card.title)}</title>
<meta name="description" content="${e(card.description)}">
<link rel="canonical" href="${e(url)}">
<meta property="og:site_name" content="Hunch">
<meta property="og:type" content="website">
<meta property="og:title" content="${e(card.title)}">
<meta property="og:description" content="${e(card.description)}">
<meta property="og:url" content="${e(url)}">
<meta property="og:image" content="${e(image)}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image:alt" content="${e(card.title)}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${e(card.title)}">
<meta name="twitter:description" content="${e(card.description)}">
<meta name="twitter:image" content="${e(image)}">
<meta http-equiv="refresh" content="0; url=${e(target)}">
</head>
<body>
<main>
<h1>${e(card.title)}</h1>
<p>${e(card.description)}</p>
<p><a href="${e(target)}">Open it on Hunch</a></p>
</main>
</body>
</html>
`;
}

/**
 * The page behind a share link whose game is not on Hunch (mistyped, or deleted before it opened):
 * a 404 a person can read, with the way on, and nothing for a preview to show.
 */
export function missingSharePage(origin: string): string {
  const search = `${origin}/communities/search`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Game not found · Hunch</title>
</head>
<body>
<main>
<h1>This game is not on Hunch</h1>
<p>The link may be mistyped, or the game was removed before it opened.</p>
<p><a href="${escapeHtml(search)}">Find communities and games on Hunch</a></p>
</main>
</body>
</html>
`;
}
