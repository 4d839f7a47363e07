import {
  COUNTDOWN_REFRESH_MS,
  type Game,
  type LiveAnswer,
  type LiveQuestionEvent,
  type QuestionResultEvent,
} from '@hunch/contract';
import { countdownText, LIVE_COUNTDOWN_MS } from '@hunch/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useMyResult, useParticipation } from '../../api/game-queries';
import { queryKeys } from '../../api/query-keys';
import { groupDigits } from '../../shared/number-text';
import { resultsPath } from '../../shared/paths';
import { formatWhen } from '../../shared/time-text';
import { useNow } from '../../shared/use-now';
import { answerText } from './live-question';
import { liveVerdict, QuestionResult, Standing, useScoreComesLater } from './live-result';

/** How often the game is fetched anew while its results are pending, in case a push is missed. */
const RESULTS_POLL_MS = 3_000;

export function PlayerCount({
  players,
  inLobby,
  compact = false,
}: {
  players: number | null;
  inLobby: boolean;
  /** In the panel's bar: on a phone only the number shows (the word stays for screen readers). */
  compact?: boolean;
}) {
  if (players === null) return null;
  const word = players === 1 ? 'player' : 'players';
  return (
    <p className="live-players">
      <span className="live-players-icon" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      <span>
        <strong>{groupDigits(players)}</strong>{' '}
        <span className={compact ? 'live-players-word' : undefined}>
          {word}
          {inLobby ? ' in the lobby' : ''}
        </span>
      </span>
    </p>
  );
}

/** The lobby: joined or not, how many are in, and the time until the start (spec §4 countdown rules). */
export function LobbyScreen({
  game,
  joined,
  players,
  onLeave,
}: {
  game: Game;
  joined: boolean | null;
  players: number | null;
  /** Out of the lobby before the start; resolves false when the game started first. */
  onLeave: () => Promise<boolean>;
}) {
  const [leaving, setLeaving] = useState<'no' | 'pending' | 'refused'>('no');
  const now = useNow(COUNTDOWN_REFRESH_MS);
  const start = new Date(game.schedule.standby);
  const soon = countdownText(start, now);
  // The day too when the start is not today (a lobby open across midnight).
  const today = start.toDateString() === now.toDateString();
  const at = formatWhen(game.schedule.standby, today ? 'h:mm a' : 'EEE, MMM d, h:mm a');
  const started = start.getTime() <= now.getTime();
  const title =
    joined === null ? 'Joining the lobby…' : joined ? 'You’re in the lobby!' : 'The lobby is not open';
  return (
    <div className="live-screen live-lobby">
      <h2 className="live-title">{title}</h2>
      {joined === false && (
        <p className="live-text">
          {game.state === 'closed'
            ? `It opens at ${formatWhen(game.schedule.open, 'h:mm a') ?? 'its scheduled time'}. Keep this page open to join then.`
            : 'You could not join this game.'}
        </p>
      )}
      <div className="live-start">
        {/* 'in' before a countdown; before a time, 'at' comes with the time. */}
        <p className="live-start-label">
          {started ? 'The game is starting' : soon ? 'Game starts in' : 'Game starts'}
        </p>
        {started ? (
          <p className="live-start-time">Any moment now…</p>
        ) : soon ? (
          <p className="live-start-time live-start-countdown" role="timer" aria-label={`in ${soon}`}>
            {soon}
          </p>
        ) : (
          <p className="live-start-time">
            at <time dateTime={game.schedule.standby}>{at ?? 'the scheduled time'}</time>
          </p>
        )}
      </div>
      <PlayerCount players={players} inLobby />
      <p className="note">Keep this page open: the first question appears here when the game starts.</p>
      {/* Joining is entering (the server keeps the entry): said, so that nobody is surprised to find
          themselves ranked on 0 after walking away from the lobby. */}
      {joined && !started && (
        <>
          <p className="note">
            You’re in this game’s rankings from now on: a question you don’t answer scores 0. Changed your
            mind? Leave before it starts.
          </p>
          <button
            type="button"
            className="button button-secondary"
            disabled={leaving === 'pending'}
            onClick={() => {
              setLeaving('pending');
              void onLeave().then((left) => {
                if (!left) setLeaving('refused');
              });
            }}
          >
            {leaving === 'pending' ? 'Leaving…' : 'Leave the lobby'}
          </button>
        </>
      )}
      {leaving === 'refused' && (
        <p className="form-error" role="alert">
          The game has started: you are in it now.
        </p>
      )}
    </div>
  );
}

/** Game started: the big 5-4-3-2-1. */
export function CountdownScreen({ endsAt }: { endsAt: number }) {
  const now = useNow(100).getTime();
  // `now` may lag a just-refined end by one tick: never count from above the countdown's length.
  const left = Math.min(Math.ceil((endsAt - now) / 1000), Math.round(LIVE_COUNTDOWN_MS / 1000));
  return (
    <div className="live-screen live-countdown">
      <p className="live-kicker">Game started!</p>
      <h2 className="live-title">Get ready…</h2>
      <p className="live-count" aria-hidden="true">
        <span key={left} className="live-count-number">
          {left > 0 ? left : 'Go!'}
        </span>
      </p>
      <p className="note">The first question appears in a moment.</p>
    </div>
  );
}

/**
 * A new screen takes the focus from the last one's controls (gone now), so a keyboard or screen
 * reader user starts at its heading; a pointer user's page does not move.
 */
function useFocusOnArrival() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    const panel = heading.current?.closest('.live-panel');
    if (!active || active === document.body || panel?.contains(active)) {
      heading.current?.focus({ preventScroll: true });
    }
  }, []);
  return heading;
}

/** Between questions: the question that just closed, the player's answer, then its result. */
export function BetweenScreen({
  last,
  stored,
  total,
  joined,
  sending,
  error,
  result,
}: {
  last: LiveQuestionEvent | null;
  stored: LiveAnswer | undefined;
  total: number;
  joined: boolean;
  /**
   * The answer to the last question is not acknowledged: 'sent' on its way, 'queued' waiting for the
   * connection (it will reach the server after the question closed); null when neither.
   */
  sending: 'sent' | 'queued' | null;
  /** Why the answer to the last question did not count ('Too late: ...'). */
  error: string | null;
  /** The closed question's result, once the server has sent it. */
  result: QuestionResultEvent | null;
}) {
  const wasLast = last !== null && last.i >= total - 1;
  const heading = useFocusOnArrival();
  const verdict = liveVerdict(result, stored);
  return (
    <div className="live-screen live-between">
      <p className="live-kicker">{last ? `Question ${last.i + 1} of ${total}` : 'Live game'}</p>
      <h2 ref={heading} tabIndex={-1} className="live-title">
        {last ? 'Time’s up!' : 'Next question coming up'}
      </h2>
      {/* An answer that was refused is explained by the error alone, not also as "no answer". */}
      {last && joined && sending && !stored && (
        <p className="live-your-answer" role="status">
          {sending === 'sent'
            ? 'Your answer was sent: waiting to hear whether it arrived in time…'
            : 'Your answer is waiting for the connection: it will likely be too late for this question.'}
        </p>
      )}
      {last && joined && (stored || (!sending && !error)) && (
        <p
          className={
            stored ? `live-your-answer ${verdict === 'wrong' ? 'is-wrong' : 'is-locked'}` : 'live-your-answer'
          }
        >
          {stored ? (
            <>
              {/* ✓ for the lock-in, then for a right guess; ◐ for a miss that scored; ✗ for none. */}
              {verdict !== 'none' ? (
                <span className="live-status-icon" aria-hidden="true">
                  {verdict === 'wrong' ? '✗' : verdict === 'partly' ? '◐' : '✓'}
                </span>
              ) : null}
              <span>
                {result ? 'Your answer' : 'Answer locked in'}: <strong>{answerText(last, stored)}</strong>
                {verdict === 'right' && ' · Right!'}
                {verdict === 'partly' && ' · Partly right'}
                {verdict === 'wrong' && ' · Not the top answer'}
              </span>
            </>
          ) : (
            'No answer this time.'
          )}
        </p>
      )}
      {error && !stored && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {result ? (
        <QuestionResult question={last} result={result} stored={stored} />
      ) : (
        last && <p className="live-checking">Checking the answers…</p>
      )}
      <p className="live-waiting">
        <span className="live-dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        {wasLast ? 'That was the last question. Wrapping up…' : 'Next question in a moment…'}
      </p>
    </div>
  );
}

/** 'Game complete!', then the way to the results once the server has scored the game. */
export function CompleteScreen({
  game,
  answered,
  joined,
  result,
}: {
  game: Game;
  answered: number;
  joined: boolean;
  /** The last question's result: the final score and rank, shown at once. */
  result: QuestionResultEvent | null;
}) {
  const queryClient = useQueryClient();
  const ready = game.state === 'complete';
  // `answered` holds this browser's answers and those the server reported at its last
  // (re)connection; answers the same account gave on another device since then are only in the
  // stored participation. Answers are stored as they arrive, seconds before the game ends, so one
  // read as this screen appears counts them all; it is needed only when some seem missing.
  const total = game.question_count;
  /** Outcomes the host is still to enter: the results wait for them, not for scoring. */
  const waiting = game.waiting_for.length > 0;
  // The last result's score is final unless points came later (an outcome the host entered after
  // the end, a crowd median): then, once the game is complete, its stored result is.
  const scoredLater = useScoreComesLater(game, result);
  const stored = useMyResult(game.uuid, joined && ready && scoredLater && !!result?.you);
  const standing =
    result?.you && stored.data
      ? {
          ...result,
          players: stored.data.players,
          you: { ...result.you, score: stored.data.score, rank: stored.data.rank },
        }
      : result;
  const settled = scoredLater ? ready && !!stored.data : true;
  const participation = useParticipation(game.uuid, joined && answered < total, true);
  const storedAnswers = participation.data ? Object.keys(participation.data.answers).length : 0;
  // Held back until read, so the number shown (and read out) does not change under the player.
  const counting = joined && answered < total && !participation.isFetchedAfterMount;
  const answeredAnywhere = Math.max(answered, storedAnswers);
  // As with each question, focus moves to the new screen's heading, so it is read out.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (ready) return;
    const timer = window.setInterval(
      () => void queryClient.invalidateQueries({ queryKey: queryKeys.game(game.uuid) }),
      RESULTS_POLL_MS,
    );
    return () => window.clearInterval(timer);
  }, [ready, game.uuid, queryClient]);

  return (
    <div className="live-screen live-complete">
      <span className="live-complete-icon" aria-hidden="true">
        ★
      </span>
      <h2 ref={heading} tabIndex={-1} className="live-title">
        Game complete!
      </h2>
      <p className="live-text" aria-busy={counting}>
        {!joined
          ? 'This live game is over.'
          : counting
            ? null
            : `You answered ${answeredAnywhere} of ${total} ${total === 1 ? 'question' : 'questions'}.`}
      </p>
      {joined && standing?.you && <Standing result={standing} final settled={settled} />}
      {joined && result?.later && !settled && (
        <p className="note">
          Some points come later, once every answer is known: the results will show them.
        </p>
      )}
      {ready ? (
        <Link className="button button-primary live-results-link" to={resultsPath(game)}>
          See results
        </Link>
      ) : waiting ? (
        // Not in a moment: when the host enters the outcome (the page says which, hosting spec §3).
        <p className="live-waiting" role="status">
          Results come once the host enters the outcome of{' '}
          {game.waiting_for.length === 1 ? 'a question' : `${game.waiting_for.length} questions`}.
        </p>
      ) : (
        <p className="live-waiting" role="status">
          <span className="spinner" aria-hidden="true" />
          Scoring the game: results in a moment…
        </p>
      )}
    </div>
  );
}
