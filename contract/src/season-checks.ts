import type { GameParts, SeasonParts } from './season-parts';
import { choiceText, type SeasonProblem } from './season-schema';

/**
 * A game whose standby is its open time: a window of no time, which nobody can enter. Refused for
 * a game that has not opened (the server's plan knows which have: one already open keeps its times).
 */
export const noTimeToEnter = (synchronous: boolean) =>
  synchronous
    ? 'The lobby must open before the game starts, so that players can join it'
    : 'Submissions must stay open for some time: they close the moment they open';

/**
 * Two games of a series at one standby time (when answers close, or a live game starts): the
 * database keeps one per series and time (it lets processes race to create the demo's next live
 * game). Said with the way out, since no rule the host knows explains it.
 */
export const sameStandby = (other: string) =>
  `Game ${other} of this series has this very standby time: each game of a series needs its own (a second apart will do)`;

/**
 * The rules one game breaks within itself: schedule order, teams, choices, linked votes, outcomes.
 * Of a game that does not parse whole, the parts that do (its shape's problems are told apart).
 */
function gameProblems(game: GameParts, path: (string | number)[]): SeasonProblem[] {
  const problems: SeasonProblem[] = [];
  const at = (p: (string | number)[], message: string) => problems.push({ path: p.join('.'), message });
  if (game.schedule && game.synchronous !== undefined) {
    const open = Date.parse(game.schedule.open);
    const standby = Date.parse(game.schedule.standby);
    const complete = Date.parse(game.schedule.complete);
    // In the words the game's page and the console use for its schedule (a live game's standby is
    // when it starts; any other game's, when its submissions close).
    const [early, late] = game.synchronous
      ? ['The game must not start before its lobby opens', 'The game must not end before it starts']
      : ['Submissions must not close before they open', 'Results must not come before submissions close'];
    if (standby < open) at([...path, 'schedule', 'standby'], early);
    if (complete < standby) at([...path, 'schedule', 'complete'], late);
  }
  const teams = new Set<string>();
  for (const [ti, team] of (game.subcommunities ?? []).entries()) {
    if (teams.has(team)) at([...path, 'subcommunities', ti], `${team} is listed twice`);
    teams.add(team);
  }
  for (const [qi, q] of game.questions.entries()) {
    if (q === null) continue;
    const qpath = [...path, 'questions', qi];
    if (q.kind === 'predict') {
      if (typeof q.outcome === 'number' && (q.outcome < q.slider.min || q.outcome > q.slider.max))
        at(
          [...qpath, 'outcome'],
          `The outcome must lie on the slider, from ${q.slider.min} to ${q.slider.max}`,
        );
      continue;
    }
    const texts = new Set<string>();
    for (const [ci, c] of q.choices.entries()) {
      if (texts.has(choiceText(c))) at([...qpath, 'choices', ci], `Choice ${choiceText(c)} is listed twice`);
      texts.add(choiceText(c));
    }
    if (q.kind === 'guess' && q.linked_vote !== undefined) {
      const linked = game.questions[q.linked_vote - 1];
      if (linked === undefined) at([...qpath, 'linked_vote'], `This game has no question ${q.linked_vote}`);
      // A question that does not parse is reported by its shape; what follows from it is not.
      else if (linked === null) continue;
      else if (linked.kind !== 'vote')
        at([...qpath, 'linked_vote'], `Question ${q.linked_vote} is a ${linked.kind}, not a vote`);
      // Points count the vote's answers per choice index: both must offer the same choices.
      else if (linked.choices.map(choiceText).join('\n') !== q.choices.map(choiceText).join('\n'))
        at(
          [...qpath, 'choices'],
          `A guess linked to question ${q.linked_vote} offers its choices, in its order`,
        );
    }
  }
  return problems;
}

/**
 * The rules a document breaks within itself (no database needed): duplicate endpoints and keys,
 * schedule order, linked votes, outcomes outside the slider, categories in two groups. Checked on
 * the parts that parse, each at its path in the document.
 */
export function seasonProblems(parts: SeasonParts): SeasonProblem[] {
  const problems: SeasonProblem[] = [];
  const at = (path: (string | number)[], message: string) => problems.push({ path: path.join('.'), message });

  const grouped = new Map<string, string>();
  for (const [group, names] of parts.groups) {
    for (const [i, name] of names.entries()) {
      const first = grouped.get(name);
      if (first !== undefined && first !== group)
        at(['category_groups', group, i], `Category ${name} is also in group ${first}`);
      grouped.set(name, group);
    }
  }
  const categories = new Set<string>();
  for (const [i, c] of parts.community?.categories?.entries() ?? []) {
    if (categories.has(c)) at(['community', 'categories', i], `Category ${c} is listed twice`);
    categories.add(c);
  }

  const seriesSeen = new Set<string>();
  for (const { index: si, fields, games, brokenGames } of parts.series) {
    if (fields && seriesSeen.has(fields.endpoint))
      at(['series', si, 'endpoint'], `Another series of this file has the endpoint ${fields.endpoint}`);
    if (fields) seriesSeen.add(fields.endpoint);
    const keys = new Set<string>();
    const standbys = new Map<number, string>();
    // Whole games and those read in parts, in the document's order.
    const all: { index: number; game: GameParts }[] = [...games, ...brokenGames].sort(
      (a, b) => a.index - b.index,
    );
    for (const { index: gi, game } of all) {
      const path = ['series', si, 'games', gi];
      if (game.key !== undefined) {
        if (keys.has(game.key)) at([...path, 'key'], `Another game of this series has the key ${game.key}`);
        keys.add(game.key);
      }
      if (game.schedule && game.key !== undefined) {
        const standby = Date.parse(game.schedule.standby);
        const clash = standbys.get(standby);
        if (clash !== undefined) at([...path, 'schedule', 'standby'], sameStandby(clash));
        standbys.set(standby, game.key);
      }
      problems.push(...gameProblems(game, path));
    }
  }
  return problems;
}
