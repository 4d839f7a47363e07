import { type GameInput, gameInputSchema } from '@hunch/contract';
import { liveEndsAt } from '@hunch/rules';
import { insertGame } from '../hosting/game-store';
import type { Queryable } from '../platform/db/database';

// Tests set up their games straight into the tables; product code creates content through the
// season import only (hosting/season-import.ts, the demo seed's included).

/**
 * Creates a game with its questions and choices, for a test; the input is validated by the contract
 * schema. Without a key, the game's uuid is its key (season files name games by key).
 */
export async function createGame(
  db: Queryable,
  seriesId: number,
  input: GameInput & { key?: string },
): Promise<string> {
  const game = gameInputSchema.parse(input);
  if (game.synchronous) {
    // Scoring runs at the complete time: a live game must be over by then, or its last answers
    // would be stored and never counted.
    const endsAt = liveEndsAt({
      startAt: game.schedule.standby.getTime(),
      secs: game.questions.map((q) => q.secs_to_answer),
    });
    if (game.schedule.complete.getTime() < endsAt) {
      throw new Error(
        `A live game must complete after its live part ends (${new Date(endsAt).toISOString()} or later)`,
      );
    }
  }
  return insertGame(db, seriesId, {
    key: input.key,
    name: game.name ?? null,
    image: game.image ?? null,
    open: game.schedule.open,
    standby: game.schedule.standby,
    complete: game.schedule.complete,
    synchronous: game.synchronous,
    speed_bonus: game.speed_bonus,
    subcommunities: [...game.subcommunities].sort(),
    questions: game.questions.map((q) => ({
      kind: q.kind,
      text: q.text,
      image: q.image ?? null,
      choices: q.choices.map((c) => ({ text: c.text, image: c.image ?? null })),
      slider: q.kind === 'predict' && q.slider ? q.slider : null,
      linked_vote_i: q.linked_vote_i ?? null,
      voided: false,
      // Authoring input knows two outcomes: a number, or none (the crowd median).
      outcome_kind: q.kind !== 'predict' ? null : q.outcome != null ? 'number' : 'crowd',
      outcome: q.kind === 'predict' ? (q.outcome ?? null) : null,
      secs_to_answer: q.secs_to_answer,
    })),
  });
}
