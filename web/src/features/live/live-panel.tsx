import type { Game, QuestionResultEvent } from '@hunch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { useProfile } from '../../api/use-profile';
import { Loading } from '../../shared/loading';
import { loginLinkFor } from '../../shared/paths';
import { LiveQuestion } from './live-question';
import { resultAnnouncement, standingText, useScoreComesLater } from './live-result';
import { BetweenScreen, CompleteScreen, CountdownScreen, LobbyScreen, PlayerCount } from './live-screens';
import { closedText, type LiveStage } from './live-state';
import { useLiveGame } from './use-live-game';

interface LivePanelProps {
  game: Game;
  /** The subcommunity the player represents (the game page's select); null when none. */
  subcommunity: string | null;
}

/** What the polite live region says when the game moves on (questions announce their own time). */
function stageAnnouncement(
  stage: LiveStage,
  joined: boolean | null,
  final: QuestionResultEvent | null,
  /** No points to come: the last result's score is the final one. */
  settled: boolean,
): string | null {
  switch (stage.kind) {
    case 'lobby':
      return joined ? 'You are in the lobby. The game starts soon.' : null;
    case 'countdown':
      return 'The game has started. Get ready: the first question is coming.';
    case 'between':
      return stage.last ? 'Time’s up.' : null;
    case 'complete':
      return final?.you ? `Game complete! ${standingText(final, settled)}` : 'Game complete!';
    default:
      return null;
  }
}

const stageKey = (stage: LiveStage) =>
  stage.kind === 'question' ? `question-${stage.question.i}` : stage.kind;

/**
 * The live (synchronous) game on the game page (#lobby): lobby, countdown, questions, complete.
 * Its connection to /game/{uuid} lives exactly as long as this panel is shown.
 */
export function LivePanel({ game, subcommunity }: LivePanelProps) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const panel = useRef<HTMLElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement(text), []);

  const onJoined = useCallback(() => {
    // The entry now exists: the page's subcommunity select locks and the player count moves.
    void queryClient.invalidateQueries({ queryKey: queryKeys.participation(game.uuid) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.game(game.uuid) });
  }, [queryClient, game.uuid]);

  const profile = useProfile();
  const { state, answer, retry, leave } = useLiveGame({
    uuid: game.uuid,
    subcommunity,
    gameState: game.state,
    player: profile?.username ?? null,
    onJoined,
  });
  const { stage, joined, players, connection, problem, result } = state;
  const navigate = useNavigate();
  // Out of the lobby: the entry is gone once the page knows it (else it would lead straight back
  // into the lobby), then the page without the live game, where 'Join Lobby' is again.
  const leaveLobby = useCallback(async () => {
    if (!(await leave())) return false;
    await queryClient.invalidateQueries({ queryKey: queryKeys.participation(game.uuid) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.game(game.uuid) });
    navigate({ search: location.search, hash: '' }, { replace: true });
    return true;
  }, [leave, queryClient, game.uuid, navigate, location.search]);

  const total = game.question_count;
  // The last question's result holds the final score and rank.
  const final = result && result.i >= total - 1 ? result : null;
  // Between questions, the result of the one that just closed (not an older one).
  const closed = stage.kind === 'between' && result && stage.last?.i === result.i ? result : null;

  // Joining moves the player here: bring the panel to the screen reader's attention.
  useEffect(() => {
    panel.current?.focus({ preventScroll: true });
  }, []);

  const key = stageKey(stage);
  const scoreComesLater = useScoreComesLater(game, final);
  const said = stageAnnouncement(stage, joined, final, !scoreComesLater);
  useEffect(() => {
    if (said) setAnnouncement(said);
    // Each step of the game starts with the panel in view, wherever the player had scrolled.
    const el = panel.current;
    if (!el || key === 'waiting') return;
    const top = el.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) {
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
    }
  }, [key, said]);

  // A result is read out as it arrives (the time's up was said already): in the same render as the
  // result itself, and kept as the text the region holds until the next thing is said.
  const lastQuestion = stage.kind === 'between' ? stage.last : null;
  const resultSaid = closed ? resultAnnouncement(lastQuestion, closed) : null;
  useEffect(() => {
    if (resultSaid) setAnnouncement(resultSaid);
  }, [resultSaid]);

  // The page's header counts players too: keep it in step with the live count.
  useEffect(() => {
    if (players === null) return;
    queryClient.setQueryData<Game>(queryKeys.game(game.uuid), (g) =>
      g && g.participants !== players ? { ...g, participants: players } : g,
    );
  }, [players, queryClient, game.uuid]);

  const resultsReady = stage.kind === 'complete' && game.state === 'complete';
  useEffect(() => {
    if (resultsReady) setAnnouncement('Results are ready.');
  }, [resultsReady]);

  // The game is under way here (its countdown, a question, the gap after one): on a phone the main
  // navigation steps aside meanwhile (frame.css), and the Leave link in the bar stands in for it.
  // Not in the lobby (a wait of minutes, where leaving costs nothing), not once it is over, and not
  // when the connection is gone (nothing to play, the navigation is the way on).
  const running =
    connection !== 'refused' &&
    connection !== 'closed' &&
    (stage.kind === 'countdown' || stage.kind === 'question' || stage.kind === 'between');
  const representing = subcommunity ? game.subcommunities[subcommunity] : undefined;
  const answered = Object.keys(state.answers).length;

  let body: ReactNode;
  if (connection === 'refused' || connection === 'closed') {
    body = (
      <div className="live-screen live-problem">
        <h2 className="live-title">Can’t reach the live game</h2>
        <p className="form-error" role="alert">
          {problem ?? 'The live game is not available right now.'}
        </p>
        {problem === 'Log in to play' ? (
          <Link className="button button-primary" to={loginLinkFor(`${location.pathname}#lobby`)}>
            Log in
          </Link>
        ) : (
          <button type="button" className="button button-secondary" onClick={retry}>
            Try again
          </button>
        )}
      </div>
    );
  } else {
    switch (stage.kind) {
      case 'waiting':
        body = (
          <Loading
            label={connection === 'connected' ? 'Joining the game…' : 'Connecting to the live game…'}
          />
        );
        break;
      case 'lobby':
        body = <LobbyScreen game={game} joined={joined} players={players} onLeave={leaveLobby} />;
        break;
      case 'countdown':
        body = <CountdownScreen endsAt={stage.endsAt} />;
        break;
      case 'question': {
        const i = stage.question.i;
        body = (
          <LiveQuestion
            key={i}
            question={stage.question}
            deadline={stage.deadline}
            total={total}
            stored={state.answers[i]}
            sending={state.sending === i}
            error={state.answerError?.i === i ? state.answerError.text : null}
            canAnswer={joined !== false}
            onAnswer={answer}
            announce={announce}
          />
        );
        break;
      }
      case 'between':
        body = (
          <BetweenScreen
            last={stage.last}
            stored={
              stage.last ? (state.answers[stage.last.i] ?? closed?.you?.answer ?? undefined) : undefined
            }
            total={total}
            joined={joined === true}
            sending={
              stage.last === null || state.sending !== stage.last.i
                ? null
                : state.connection === 'connected'
                  ? 'sent'
                  : 'queued'
            }
            error={
              stage.last && state.answerError?.i === stage.last.i ? closedText(state.answerError.text) : null
            }
            result={closed}
          />
        );
        break;
      case 'complete':
        body = <CompleteScreen game={game} answered={answered} joined={joined === true} result={final} />;
        break;
    }
  }

  return (
    <section
      ref={panel}
      id="lobby"
      className={`card live-panel is-${stage.kind}${running ? ' is-running' : ''}`}
      aria-label="Live game"
      tabIndex={-1}
    >
      <header className="live-bar">
        <span className="live-badge">
          <span className="live-dot" aria-hidden="true" />
          Live
        </span>
        <span className="live-bar-name">
          <span className="bar-title">{game.name}</span>
          {representing && <span className="live-bar-team">Playing for {representing}</span>}
        </span>
        {stage.kind !== 'lobby' && <PlayerCount players={players} inLobby={false} compact />}
        {/* Shown only where the navigation is hidden (live.css). The player stays in the game: any
            link to it, Happening Now's among them, leads back into the question in progress. */}
        {running && (
          <Link className="live-leave" to="/play/current">
            Leave<span className="visually-hidden"> the live game</span>
          </Link>
        )}
      </header>
      {connection === 'reconnecting' && (
        <p className="live-connection" role="status">
          <span className="spinner" aria-hidden="true" />
          Connection lost. Reconnecting…
        </p>
      )}
      <div className="live-body">{body}</div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {resultSaid ?? announcement}
      </p>
    </section>
  );
}
