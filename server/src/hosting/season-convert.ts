import {
  choiceText,
  SECS_TO_ANSWER_DEFAULT,
  type SeasonGame,
  type SeasonGameInput,
  type SeasonQuestion,
  type SeasonQuestionInput,
} from '@hunch/contract';
import type { ImageKind } from '../platform/images';
import type { StoredGame, StoredQuestion } from './game-store';

/** The stored name of an image a season names (resolved beforehand), or null when it names none. */
export type ImageName = (kind: ImageKind, ref: string | undefined) => string | null;

function storedQuestion(q: SeasonQuestion, image: ImageName): StoredQuestion {
  const base = {
    kind: q.kind,
    text: q.text,
    image: image('questions', q.image),
    secs_to_answer: q.secs_to_answer,
    ...(q.voided !== undefined && { voided: q.voided }),
  };
  if (q.kind === 'predict') {
    const number = typeof q.outcome === 'number';
    return {
      ...base,
      choices: [],
      slider: { min: q.slider.min, max: q.slider.max, step: q.slider.step, unit: q.slider.unit },
      linked_vote_i: null,
      outcome_kind: number ? 'number' : (q.outcome as 'crowd' | 'pending'),
      outcome: number ? (q.outcome as number) : null,
    };
  }
  return {
    ...base,
    choices: q.choices.map((c) => ({
      text: choiceText(c),
      image: typeof c === 'string' ? null : image('questions', c.image),
    })),
    slider: null,
    linked_vote_i: q.kind === 'guess' && q.linked_vote !== undefined ? q.linked_vote - 1 : null,
    outcome_kind: null,
    outcome: null,
  };
}

/** A season file's game as the tables hold it. */
export function storedGame(game: SeasonGame, image: ImageName): StoredGame {
  return {
    key: game.key,
    name: game.name ?? null,
    image: image('games', game.image),
    open: new Date(game.schedule.open),
    standby: new Date(game.schedule.standby),
    complete: new Date(game.schedule.complete),
    synchronous: game.synchronous,
    speed_bonus: game.speed_bonus,
    subcommunities: [...game.subcommunities].sort(),
    questions: game.questions.map((q) => storedQuestion(q, image)),
  };
}

/** A time as a season file writes it: ISO 8601 in UTC, without milliseconds when there are none. */
export const isoTime = (d: Date) => d.toISOString().replace('.000Z', 'Z');

function seasonQuestion(q: StoredQuestion): SeasonQuestionInput {
  const common = {
    text: q.text,
    ...(q.image !== null && { image: q.image }),
  };
  // Written only when set, last, as the file's lines are read: a copy elsewhere keeps the void.
  const secs = {
    ...(q.secs_to_answer !== SECS_TO_ANSWER_DEFAULT && { secs_to_answer: q.secs_to_answer }),
    ...(q.voided && { voided: true }),
  };
  if (q.kind === 'predict') {
    // An entered pending outcome is written as its number: importing it back changes nothing.
    const outcome = q.outcome ?? (q.outcome_kind === 'pending' ? 'pending' : 'crowd');
    return { kind: 'predict', ...common, slider: q.slider!, outcome, ...secs };
  }
  const choices = q.choices.map((c) => (c.image === null ? c.text : { text: c.text, image: c.image }));
  if (q.kind === 'vote') return { kind: 'vote', ...common, choices, ...secs };
  return {
    kind: 'guess',
    ...common,
    choices,
    ...(q.linked_vote_i !== null && { linked_vote: q.linked_vote_i + 1 }),
    ...secs,
  };
}

/** A stored game as a season file writes it (export, and the audit log's values). */
export function seasonGame(game: StoredGame): SeasonGameInput {
  return {
    key: game.key,
    ...(game.name !== null && { name: game.name }),
    ...(game.image !== null && { image: game.image }),
    synchronous: game.synchronous,
    speed_bonus: game.speed_bonus,
    schedule: { open: isoTime(game.open), standby: isoTime(game.standby), complete: isoTime(game.complete) },
    ...(game.subcommunities.length > 0 && { subcommunities: game.subcommunities }),
    questions: game.questions.map(seasonQuestion),
  };
}

/**
 * Whether a file's outcome matches the stored one. A pending outcome a host has since entered
 * matches both the file that said `pending` and the exported file that carries the number.
 */
function sameOutcome(file: StoredQuestion, stored: StoredQuestion): boolean {
  if (file.outcome_kind === 'number')
    return (
      (stored.outcome_kind === 'number' || stored.outcome_kind === 'pending') &&
      stored.outcome === file.outcome
    );
  return file.outcome_kind === stored.outcome_kind;
}

const content = (q: StoredQuestion) =>
  JSON.stringify([q.kind, q.text, q.image, q.choices, q.slider, q.linked_vote_i, q.secs_to_answer]);

/**
 * How a file's question compares with the stored one: the same, a different outcome or void only
 * (what a host changes in the console once a game has opened), or more. A file that does not say
 * `voided` matches a question voided since, as `pending` matches an outcome entered since: a file
 * saved before the void still imports. One that says it otherwise asks for a change.
 */
export function compareQuestion(file: StoredQuestion, stored: StoredQuestion | undefined) {
  if (!stored) return 'new' as const;
  if (content(file) !== content(stored)) return 'changed' as const;
  if (!sameOutcome(file, stored)) return 'outcome' as const;
  return file.voided === undefined || file.voided === !!stored.voided ? ('same' as const) : ('void' as const);
}

/** The settings of a game besides its questions, in a comparable form. */
export const gameSettings = (g: StoredGame) =>
  JSON.stringify([
    g.name,
    g.image,
    g.open.getTime(),
    g.standby.getTime(),
    g.complete.getTime(),
    g.synchronous,
    g.speed_bonus,
    g.subcommunities,
  ]);
