import type { Season, SeasonGame, SeasonQuestion, SeasonSeries } from '@hunch/contract';
import { SECS_TO_ANSWER_DEFAULT } from '@hunch/contract';
import { addWeeks } from 'date-fns';
import { sameValue } from './use-draft';

/**
 * Edits of a season document (hosting spec §4), the console's one way to change content: each
 * screen edits its part of the community's exported document and imports the whole of it. Pure
 * functions over plain data, so the rules that are easy to get wrong (renumbering linked votes) are
 * tested without a browser.
 */

export type QuestionKind = SeasonQuestion['kind'];
export type Schedule = SeasonGame['schedule'];
/** A choice as the editor holds it: always an object, so an empty text is reported at `.text`. */
export interface EditChoice {
  text: string;
  image?: string;
}

export const CHOICES_MIN = 2;
export const CHOICES_MAX = 12;
export const QUESTIONS_MAX = 50;

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;

export const gamePathOf = (si: number, gi: number) => `series.${si}.games.${gi}`;
export const seriesPathOf = (si: number) => `series.${si}`;

export function seriesIndex(season: Season, endpoint: string): number {
  return season.series.findIndex((s) => s.endpoint === endpoint);
}

export function gameIndex(series: SeasonSeries, key: string): number {
  return series.games.findIndex((g) => g.key === key);
}

/** The document with one series' settings replaced, or a new series appended (`si` -1). */
export function withSeries(season: Season, si: number, series: SeasonSeries): Season {
  const list = si < 0 ? [...season.series, series] : season.series.map((s, i) => (i === si ? series : s));
  return { ...season, series: list };
}

/** The document with one game replaced, or appended to its series (`gi` -1). */
export function withGame(season: Season, si: number, gi: number, game: SeasonGame): Season {
  const series = season.series[si];
  if (!series) throw new Error(`No series ${si} in the document`);
  const games = gi < 0 ? [...series.games, game] : series.games.map((g, i) => (i === gi ? game : g));
  return withSeries(season, si, { ...series, games });
}

/** Choices as objects ({text, image}), which the format accepts as well as bare texts. */
export function editableChoices(q: SeasonQuestion): EditChoice[] {
  if (q.kind === 'predict') return [];
  return q.choices.map((c) => (typeof c === 'string' ? { text: c } : { ...c }));
}

/** A game's questions with every choice as an object: the shape the editor works on. */
export function editableGame(game: SeasonGame): SeasonGame {
  return {
    ...game,
    questions: game.questions.map((q) => (q.kind === 'predict' ? q : { ...q, choices: editableChoices(q) })),
  };
}

/** A new question of a kind: empty texts for the host to fill, a slider from 0 to 100. */
export function newQuestion(kind: QuestionKind): SeasonQuestion {
  const base = { text: '', secs_to_answer: SECS_TO_ANSWER_DEFAULT, voided: false };
  if (kind === 'predict')
    return { kind, ...base, slider: { min: 0, max: 100, step: 1, unit: '' }, outcome: 'pending' };
  return { kind, ...base, choices: [{ text: '' }, { text: '' }] };
}

/**
 * A question turned into another kind: its text, image and time stay; choices stay between vote
 * and guess; a predict gets a slider (and its outcome pending), a choice question two empty choices.
 * `earlier`: the question as it was before it last left the new kind's side (choices or slider),
 * whose parts come back, so a kind changed and changed back loses nothing.
 */
export function withKind(q: SeasonQuestion, kind: QuestionKind, earlier?: SeasonQuestion): SeasonQuestion {
  if (q.kind === kind) return q;
  const keep = { text: q.text, secs_to_answer: q.secs_to_answer, ...(q.image && { image: q.image }) };
  if (earlier?.kind === kind) {
    // Back to the kind it had: as it was then (its link, slider, outcome; no field added), with what
    // was edited since (text, image, time). Between vote and guess the choices are today's.
    const { text: _text, image: _image, secs_to_answer: _secs, ...parts } = earlier;
    const back = { ...parts, ...keep } as SeasonQuestion;
    return back.kind !== 'predict' && q.kind !== 'predict' ? { ...back, choices: editableChoices(q) } : back;
  }
  const fresh = newQuestion(kind);
  if (kind === 'predict') return { ...fresh, ...keep } as SeasonQuestion;
  // From a predict: the choices it had before, on the other choice kind (a vote's for a guess).
  const from = q.kind === 'predict' ? earlier : q;
  const choices = from && from.kind !== 'predict' ? editableChoices(from) : editableChoices(fresh);
  return { ...fresh, ...keep, choices } as SeasonQuestion;
}

/**
 * Question `i`, a guess, as its linked vote stands now: that vote's choices (a guess offers them, in
 * their order), or no link when the number is no longer another question's vote. A guess brought
 * back by a kind change may carry a link older than the vote's latest edit, or than a move.
 */
export function followLinkedVote(game: SeasonGame, i: number, q: SeasonQuestion): SeasonQuestion {
  if (q.kind !== 'guess' || q.linked_vote === undefined) return q;
  const vote = game.questions[q.linked_vote - 1];
  if (vote?.kind === 'vote' && q.linked_vote - 1 !== i) return { ...q, choices: editableChoices(vote) };
  const { linked_vote: _gone, ...unlinked } = q;
  return unlinked;
}

/** Renumbers every guess's linked_vote (1-based) through `map`; undefined unlinks it. */
function relink(questions: SeasonQuestion[], map: (n: number) => number | undefined): SeasonQuestion[] {
  return questions.map((q) => {
    if (q.kind !== 'guess' || q.linked_vote === undefined) return q;
    const { linked_vote, ...rest } = q;
    const next = map(linked_vote);
    return next === undefined ? rest : { ...rest, linked_vote: next };
  });
}

export function addQuestion(game: SeasonGame, kind: QuestionKind): SeasonGame {
  return { ...game, questions: [...game.questions, newQuestion(kind)] };
}

/** Removes question `i` (0-based); a guess linked to it is unlinked, later numbers move down. */
export function removeQuestion(game: SeasonGame, i: number): SeasonGame {
  const removed = i + 1;
  const rest = game.questions.filter((_, k) => k !== i);
  return {
    ...game,
    questions: relink(rest, (n) => (n === removed ? undefined : n > removed ? n - 1 : n)),
  };
}

/** Moves question `i` by `delta` places (-1 up, +1 down); linked votes follow their question. */
export function moveQuestion(game: SeasonGame, i: number, delta: number): SeasonGame {
  const j = i + delta;
  if (j < 0 || j >= game.questions.length || j === i) return game;
  const questions = [...game.questions];
  const [moved] = questions.splice(i, 1);
  questions.splice(j, 0, moved!);
  // Question numbers (1-based) as they were -> as they are now.
  const from = i + 1;
  const to = j + 1;
  const renumber = (n: number) => {
    if (n === from) return to;
    if (from < to && n > from && n <= to) return n - 1;
    if (from > to && n >= to && n < from) return n + 1;
    return n;
  };
  return { ...game, questions: relink(questions, renumber) };
}

/**
 * Question `i` changed. The guesses linked to it, when it is a vote, follow its choices (a guess
 * offers its vote's choices in its order): a renamed choice would otherwise leave them stale, and
 * refused with no way shown to copy them again. When it is no longer a vote they are unlinked, as
 * when it is removed: a link to a predict is refused, and their select could not show it.
 * `relinked`: guesses (0-based) to link to it again when it is a vote and they are unlinked, those
 * its kind change unlinked.
 */
export function replaceQuestion(
  game: SeasonGame,
  i: number,
  q: SeasonQuestion,
  relinked: readonly number[] = [],
): SeasonGame {
  const n = i + 1;
  return {
    ...game,
    questions: game.questions.map((old, k) => {
      if (k === i) return q;
      if (old.kind !== 'guess') return old;
      const linked = old.linked_vote === n || (old.linked_vote === undefined && relinked.includes(k));
      if (!linked) return old;
      if (q.kind === 'vote') return { ...old, linked_vote: n, choices: editableChoices(q) };
      const { linked_vote: _gone, ...unlinked } = old;
      return unlinked;
    }),
  };
}

/** The guesses (0-based) linked to question `i`. */
export function guessesLinkedTo(game: SeasonGame, i: number): number[] {
  return game.questions.flatMap((q, k) => (q.kind === 'guess' && q.linked_vote === i + 1 ? [k] : []));
}

/** The vote questions a guess at index `i` may link to: number (1-based) and text. */
export function linkableVotes(game: SeasonGame, i: number): { n: number; text: string }[] {
  return game.questions.flatMap((q, k) => (q.kind === 'vote' && k !== i ? [{ n: k + 1, text: q.text }] : []));
}

/**
 * A key free in the series, after `base`: 'week-3' gives 'week-4' (a weekly league's next game),
 * others get '-2', '-3'... Keys are at most 40 characters.
 */
export function nextKey(base: string, taken: readonly string[]): string {
  const used = new Set(taken);
  const numbered = /^(.*?)(\d+)$/.exec(base);
  const stem = numbered ? numbered[1]! : `${base.slice(0, 36)}-`;
  let n = numbered ? Number(numbered[2]) + 1 : 2;
  for (; ; n++) {
    const key = `${stem}${n}`.slice(-40);
    if (!used.has(key)) return key;
  }
}

const isoOf = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

/**
 * The schedule moved on by whole weeks, the fewest that put its open after `now`: weeks of the
 * host's calendar (addWeeks works in local time), so a game at 11:00 is copied to 11:00 across a
 * change to or from daylight-saving time, not an hour off.
 */
export function laterSchedule(schedule: Schedule, now: Date): Schedule {
  const open = Date.parse(schedule.open);
  // A first guess in fixed weeks, then set by the calendar: an hour of daylight saving either way.
  let weeks = Math.max(1, Math.floor((now.getTime() - open) / WEEK) + 1);
  while (addWeeks(open, weeks).getTime() <= now.getTime()) weeks++;
  while (weeks > 1 && addWeeks(open, weeks - 1).getTime() > now.getTime()) weeks--;
  const shift = (iso: string) => isoOf(addWeeks(Date.parse(iso), weeks).getTime());
  return { open: shift(schedule.open), standby: shift(schedule.standby), complete: shift(schedule.complete) };
}

/** A numbered name counts on ('Week 3' gives 'Week 4'); another stays as it is. */
export function nextName(name: string | undefined): string | undefined {
  const numbered = name === undefined ? null : /^(.*?)(\d+)$/.exec(name);
  return numbered ? `${numbered[1]}${Number(numbered[2]) + 1}` : name;
}

/**
 * A copy of a game for Duplicate (hosting spec §2): the same questions under a new key and
 * schedule, and the next name when it is numbered. Numeric outcomes are the old game's truths, so
 * they become pending again; 'crowd' stays. A void was the old game's call: the copy asks them all.
 */
export function duplicateGame(game: SeasonGame, key: string, schedule: Schedule): SeasonGame {
  const questions = game.questions.map((q) =>
    q.kind === 'predict' && typeof q.outcome === 'number'
      ? { ...q, outcome: 'pending' as const, voided: false }
      : { ...q, voided: false },
  );
  const copy = { ...structuredClone(game), key, schedule, questions: structuredClone(questions) };
  const name = nextName(game.name);
  return editableGame(name === undefined ? copy : { ...copy, name });
}

/** A first game for a series: open tomorrow on the hour, two days to answer, results a day later. */
export function newGame(key: string, now: Date): SeasonGame {
  const hour = 60 * 60 * 1000;
  const open = Math.ceil(now.getTime() / hour) * hour + DAY;
  return {
    key,
    synchronous: false,
    speed_bonus: false,
    schedule: { open: isoOf(open), standby: isoOf(open + 2 * DAY), complete: isoOf(open + 3 * DAY) },
    subcommunities: [],
    questions: [newQuestion('vote')],
  };
}

/** A new, empty series. */
export function newSeries(endpoint: string, name: string): SeasonSeries {
  return { endpoint, name, description: '', games: [] };
}

/**
 * A community's or a series' settings as a save sends them. The export leaves out an empty
 * description and the default image, and the drafts hold them so, to compare equal to it once
 * saved; the import reads a field left out as "keep the stored one", so a save says '' and null.
 */
export function settingsToSave<T extends { description?: string; image?: string | null }>(draft: T): T {
  return { ...draft, description: draft.description ?? '', image: draft.image ?? null };
}

/** An optional text as the export holds it: left out when empty. */
export const textOrLeftOut = (text: string): string | undefined => (text === '' ? undefined : text);

/** Comma-separated text (categories, subcommunities) as a list, and back. */
export function listFromText(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A draft of a game that has opened meanwhile: what the opening locked (its questions and choices,
 * live or not, the speed bonus, its subcommunities and its open time; hosting spec §2) goes back to
 * what was saved, the rest stays as the host edited it. `changed`: some of the host's edits went.
 */
export function withOpenedParts(
  draft: SeasonGame,
  saved: SeasonGame,
): { game: SeasonGame; changed: boolean } {
  const game: SeasonGame = {
    ...draft,
    questions: saved.questions,
    synchronous: saved.synchronous,
    speed_bonus: saved.speed_bonus,
    subcommunities: saved.subcommunities,
    schedule: { ...draft.schedule, open: saved.schedule.open },
  };
  return { game, changed: !sameValue(game, draft) };
}
