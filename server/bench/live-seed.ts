import { createHash } from 'node:crypto';
import { createCommunity, createSeries } from '../src/hosting/authoring';
import type { Db } from '../src/platform/db/database';
import { createGame } from '../src/test/authoring';

/** One community with n members who each have a session `${tokenPrefix}${k}`, and one live game. */
export async function seedLiveGame(
  db: Db,
  n: number,
  tokenPrefix: string,
  questionSecs: number,
): Promise<{ gameId: string }> {
  const communityId = await createCommunity(db, { endpoint: 'bench-live', name: 'Bench Live Club' });
  const seriesId = await createSeries(db, { communityId, endpoint: 'bench-live', name: 'Bench Live' });
  await db.query(
    `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, date_of_birth, is_demo)
     SELECT 'bench_' || k, 'bench_' || k, 'bench_' || k || '@bench.invalid', 'bench_' || k || '@bench.invalid',
            '!', '77002', DATE '1990-01-01', true
       FROM generate_series(0, $1::int - 1) k`,
    [n],
  );
  await db.query(
    `INSERT INTO memberships (user_id, community_id) SELECT id, $1 FROM users WHERE username_key LIKE 'bench\\_%'`,
    [communityId],
  );
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at)
     SELECT encode(sha256(convert_to($1 || k, 'UTF8')), 'hex'), u.id, now() + interval '1 day'
       FROM generate_series(0, $2::int - 1) k JOIN users u ON u.username_key = 'bench_' || k`,
    [tokenPrefix, n],
  );
  await db.exec('ANALYZE');
  // The SQL hash must be the server's: sha256 hex of the cookie value.
  const { rows } = await db.query<{ token_hash: string }>(
    `SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username_key = 'bench_0'`,
  );
  if (rows[0]?.token_hash !== createHash('sha256').update(`${tokenPrefix}0`).digest('hex')) {
    throw new Error('session token hashes do not match the server’s');
  }
  const now = Date.now();
  // Far ahead while players connect; moved to just ahead once all are in the lobby.
  const standby = now + 30 * 60_000;
  const colours = ['Red', 'Green', 'Blue', 'Yellow'].map((text) => ({ text }));
  const gameId = await createGame(db, seriesId, {
    name: 'Bench live game',
    schedule: {
      open: new Date(now - 60_000),
      standby: new Date(standby),
      complete: new Date(standby + 30 * 60_000),
    },
    synchronous: true,
    questions: [
      {
        kind: 'vote',
        text: 'Which colour do you like best?',
        choices: colours,
        secs_to_answer: questionSecs,
      },
      {
        kind: 'guess',
        text: 'Which colour will most players like best?',
        choices: colours,
        linked_vote_i: 0,
        secs_to_answer: questionSecs,
      },
      {
        kind: 'vote',
        text: 'Tea or coffee?',
        choices: [{ text: 'Tea' }, { text: 'Coffee' }, { text: 'Neither' }],
        secs_to_answer: questionSecs,
      },
      {
        kind: 'predict',
        text: 'How many degrees will it be tomorrow at noon?',
        slider: { min: -20, max: 45, step: 1, unit: '°C' },
        secs_to_answer: questionSecs,
      },
    ],
  });
  return { gameId };
}
