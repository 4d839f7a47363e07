import {
  type Game,
  gameNamespace,
  type LiveAnswer,
  type QuestionItem,
  SOCKET_TIMEOUT_MS,
} from '@hunch/contract';
import type { SoakHttp } from './soak-client';
import type { SoakTally } from './soak-report';

// A simulated user in a live game: connect to the game's namespace, 'lobby', then an 'answer' to
// each 'question' after some reading time, until 'game_complete'.

/** What every user shares: where the server is, when to stop, and the running counts. */
export interface SoakWorld {
  base: string;
  /** Epoch ms: no new action starts after this. */
  deadline: number;
  tally: SoakTally;
  /** Makes this run's usernames unique. */
  runTag: string;
  active: { users: number; live: number };
  live: { games: Set<string>; lobbyJoins: number; answers: number; acked: number };
}

/** After the last question, acknowledgements still on their way get this long. */
const SETTLE_MS = 10_000;

/** A valid answer to a question: a random choice, or a number on the slider's steps. */
export function randomAnswer(q: Pick<QuestionItem, 'i' | 'question'>, rnd = Math.random): LiveAnswer {
  const slider = q.question.slider;
  if (slider) {
    const steps = Math.floor((slider.max - slider.min) / slider.step + 1e-9);
    // Rounded to the step's decimals, so 0.1 steps do not send 0.30000000000000004.
    const decimals = (String(slider.step).split('.')[1] ?? '').length;
    const x = slider.min + Math.floor(rnd() * (steps + 1)) * slider.step;
    return { question_i: q.i, choice_i: null, number_answer: Number(x.toFixed(decimals)) };
  }
  return {
    question_i: q.i,
    choice_i: Math.floor(rnd() * q.question.choices.length),
    number_answer: null,
  };
}

/** Plays one live game from its lobby; resolves when it is over, the soak ends, or the server refuses. */
export function playLiveGame(
  http: SoakHttp,
  world: SoakWorld,
  game: Game,
  subcommunity: string | null,
): Promise<void> {
  const { tally } = world;
  const where = gameNamespace(game.uuid);
  // The live part ends at the game's complete time; a little longer for the last acknowledgements.
  const giveUpAt = Math.min(world.deadline, Date.parse(game.schedule.complete) + 30_000);
  const socket = http.openLive(game.uuid, subcommunity);
  const timers = new Set<NodeJS.Timeout>();
  const answered = new Set<number>();
  let pending = 0;
  let closing = false;
  /** The game said it is over: the server may close the socket now. */
  let over = false;
  let connected = false;
  let lobbyAsked = false;
  const t0 = performance.now();

  return new Promise<void>((resolve) => {
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };
    const finish = () => {
      if (closing) return;
      closing = true;
      for (const t of timers) clearTimeout(t);
      clearTimeout(stop);
      socket.close();
      resolve();
    };
    const stop = setTimeout(finish, Math.max(0, giveUpAt - Date.now()));
    // At the end, wait for the acknowledgements still under way (bounded).
    const settle = (until = Date.now() + SETTLE_MS) => {
      if (pending === 0 || Date.now() >= until) finish();
      else later(100, () => settle(until));
    };

    socket.on('latency', (ack) => ack());
    socket.on('connect', () => {
      if (!connected) tally.record('live:connect', performance.now() - t0);
      connected = true;
      // After a reconnection the server finds the entry by itself (resume).
      if (lobbyAsked) return;
      lobbyAsked = true;
      const l0 = performance.now();
      socket.timeout(SOCKET_TIMEOUT_MS).emit('lobby', (err, joined) => {
        if (closing) return;
        if (err) {
          tally.error('live lobby: no acknowledgement', where);
          return finish();
        }
        tally.record('live:lobby', performance.now() - l0);
        if (!joined) {
          tally.error('live lobby: refused', where);
          return finish();
        }
        world.live.lobbyJoins++;
        world.live.games.add(game.uuid);
      });
    });
    socket.on('connect_error', (err) => {
      tally.error(`live connect_error: ${err.message}`, where);
      // Refused by the server's checks: socket.io does not try again, so neither does the user.
      if (!socket.active) finish();
    });
    socket.on('disconnect', (reason) => {
      if (closing || over) return;
      tally.error(`live disconnect: ${reason}`, where);
      if (!socket.active) finish();
    });
    socket.on('question', (q) => {
      // A reconnection's resume repeats the question in progress.
      if (answered.has(q.i) || closing) return;
      answered.add(q.i);
      // Reading time: from 1 s to 2.5 s before the deadline, as people answer. A late joiner who
      // gets the question with less time than that left lets it go, as a person would.
      if (q.time_left < 3_500) return;
      const received = performance.now();
      const readMs = 1_000 + Math.random() * (q.time_left - 3_500);
      later(readMs, () => {
        const a0 = performance.now();
        pending++;
        world.live.answers++;
        socket.timeout(SOCKET_TIMEOUT_MS).emit('answer', randomAnswer(q), (err, ack) => {
          pending--;
          if (err) {
            // Unanswered because we left (the soak ended) is no error of the server's.
            if (!closing) tally.error('live answer: no acknowledgement', `${where} question ${q.i}`);
            return;
          }
          tally.record('live:answer', performance.now() - a0);
          if (ack.ok) world.live.acked++;
          else
            tally.error(
              `live answer refused: ${ack.error ?? '(no reason)'}`,
              `${where} question ${q.i}, sent ${Math.round(a0 - received)} ms after it arrived with ${Math.round(q.time_left)} ms left, answered after ${Math.round(performance.now() - a0)} ms`,
            );
        });
      });
    });
    const end = () => {
      over = true;
      settle();
    };
    socket.on('game_complete', end);
    socket.on('resume', (r) => {
      if (r.phase === 'complete') end();
    });
  });
}
