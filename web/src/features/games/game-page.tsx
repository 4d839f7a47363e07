import type { Game, Participation } from '@hunch/contract';
import { nextStateChangeAt } from '@hunch/rules';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { errorText, isApiError } from '../../api/client';
import { useGame, useParticipation } from '../../api/game-queries';
import { queryKeys } from '../../api/query-keys';
import { useGameChannel } from '../../api/use-game-channel';
import { useProfile } from '../../api/use-profile';
import { Loading } from '../../shared/loading';
import { groupDigits } from '../../shared/number-text';
import { gamePath, seriesPath } from '../../shared/paths';
import { ScoringLink } from '../../shared/scoring-link';
import { formatWhen } from '../../shared/time-text';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useNow } from '../../shared/use-now';
import { AddToCalendar } from './add-to-calendar';
import { GameAction } from './game-action';
import { GameHeader } from './game-header';
import { GameSchedule } from './game-schedule';
import { worthWatching } from './game-watch';
import { SubcommunitySelect } from './subcommunity-select';

/** What the question flow hands the game page as it leaves: a changed answer submissions closed on. */
export interface GamePageState {
  unsentAnswerLost?: boolean;
}

/**
 * The live game shown at the top of a live game's page (#lobby), given by the app (the live feature
 * is not this feature's to import): the game and the subcommunity the player represents.
 */
export type LiveSlot = (game: Game, subcommunity: string | null) => ReactNode;

/** The states in which a live game's page may open at its lobby (the live game is under way). */
const livePhase = (game: Game) =>
  game.synchronous && (game.state === 'open' || game.state === 'standby' || game.state === 'results');

/** Fetch the game anew when the clock passes its next boundary, in case a socket push is missed. */
function useRefreshAtBoundary(game: Game | undefined): void {
  const queryClient = useQueryClient();
  const next = game ? nextStateChangeAt(game.schedule, new Date())?.getTime() : undefined;
  useEffect(() => {
    if (!game || next === undefined) return;
    const delay = next - Date.now() + 1000;
    if (delay > 2_000_000_000) return;
    const timer = window.setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: queryKeys.game(game.uuid) }),
      Math.max(0, delay),
    );
    return () => window.clearTimeout(timer);
  }, [game, next, queryClient]);
}

function FinishedBanner({ game }: { game: Game }) {
  const when = formatWhen(game.schedule.complete, 'EEEE, MMM d, h:mm a');
  // 'Submit & Finish' is gone with the question flow: the keyboard goes on from here, not from the
  // top of the document.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus({ preventScroll: true }), []);
  return (
    <section className="card finished-banner" role="status" aria-live="polite">
      <span className="finished-icon" aria-hidden="true">
        ✓
      </span>
      <div>
        <h2 className="finished-title" ref={title} tabIndex={-1}>
          Your answers are in!
        </h2>
        <p>
          {game.state === 'complete'
            ? 'Results are ready: see how you did.'
            : `Thanks for playing. Results arrive ${when ? `after ${when}` : 'once the game is scored'}.`}
        </p>
        {game.state === 'open' && (
          <p className="note">You can update your answers until submissions close.</p>
        )}
      </div>
    </section>
  );
}

/**
 * A game past its end that waits for the host's outcomes (hosting spec §3) says which, so players
 * know why there are no results yet.
 */
function WaitingForOutcomes({ game }: { game: Game }) {
  if (game.waiting_for.length === 0) return null;
  return (
    <section className="card waiting-outcomes" aria-labelledby="waiting-outcomes-title">
      <h2 id="waiting-outcomes-title" className="waiting-outcomes-title">
        Waiting for the host
      </h2>
      <p>
        Results come once the host enters what really happened for{' '}
        {game.waiting_for.length === 1 ? 'this question' : `these ${game.waiting_for.length} questions`}:
      </p>
      <ul className="waiting-outcomes-list">
        {game.waiting_for.map((text, i) => (
          // Two questions may share a text; their order is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: texts may repeat; the list never reorders
          <li key={i}>{text}</li>
        ))}
      </ul>
    </section>
  );
}

function YourResult({ participation }: { participation: Participation }) {
  const { rank, score } = participation.entry;
  if (rank === null && score === null) return null;
  return (
    <p className="your-result">
      {score !== null && (
        <span>
          Your score <strong>{groupDigits(score)}</strong>
        </span>
      )}
      {rank !== null && (
        <span>
          Rank <strong>#{rank}</strong>
        </span>
      )}
    </p>
  );
}

function GameView({
  game,
  liveSlot,
  prepareLive,
}: {
  game: Game;
  liveSlot: LiveSlot;
  prepareLive: (() => unknown) | undefined;
}) {
  const profile = useProfile() ?? null;
  const location = useLocation();
  const [params] = useSearchParams();
  const participationQuery = useParticipation(game.uuid, profile !== null);
  const participation = participationQuery.data ?? null;
  const [picked, setPicked] = useState('');
  const now = useNow(30_000);
  useDocumentTitle(game.name);

  const hasSubcommunities = Object.keys(game.subcommunities).length > 0;
  const locked = participation !== null;
  const subcommunity = participation ? (participation.entry.subcommunity?.endpoint ?? '') : picked;
  const joined = new Set(Object.keys(profile?.joined_communities ?? {}));
  const isMember = joined.has(game.community.endpoint);
  // #lobby: the live game takes the top of the page, once the player's entry (and so the
  // subcommunity the connection represents) is known.
  const live =
    location.hash === '#lobby' && game.synchronous && profile !== null && !participationQuery.isPending;
  // A player already in a live game goes back into it from any link to the game (another tab, another
  // device, the play lists): the page opens at #lobby, as after 'Join Lobby'.
  const navigate = useNavigate();
  // Said once: the history entry forgets it, so a reload or a Back to the page does not say it again.
  const [answerLost] = useState(() => (location.state as GamePageState | null)?.unsentAnswerLost === true);
  useEffect(() => {
    if (answerLost)
      navigate({ search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [answerLost, navigate, location.search, location.hash]);
  const underWay = livePhase(game);
  const backInto = participation !== null && underWay;
  // The live panel is its own chunk: fetched as soon as the game is under way, not once #lobby shows.
  useEffect(() => {
    if (underWay) prepareLive?.();
  }, [underWay, prepareLive]);
  useEffect(() => {
    if (backInto && location.hash !== '#lobby') {
      navigate({ search: location.search, hash: 'lobby' }, { replace: true });
    }
  }, [backInto, location.hash, location.search, navigate]);

  const takePart = (
    <section className="card game-play" aria-label="Take part">
      {hasSubcommunities && (
        <SubcommunitySelect
          game={game}
          joined={joined}
          value={subcommunity}
          locked={locked}
          onChange={setPicked}
        />
      )}
      {participation && <YourResult participation={participation} />}
      {participationQuery.isError && (
        <p className="form-error" role="alert">
          {errorText(participationQuery.error)}
        </p>
      )}
      {participationQuery.isPending && profile !== null ? (
        <Loading label="Checking your entry…" />
      ) : (
        <GameAction game={game} profile={profile} participation={participation} subcommunity={subcommunity} />
      )}
    </section>
  );

  return (
    <article className={live ? 'page game-page is-live' : 'page game-page'}>
      {live && liveSlot(game, subcommunity || null)}
      <GameHeader game={game} />
      {params.get('complete') === '1' && <FinishedBanner game={game} />}
      {answerLost && (
        <p className="form-error" role="alert">
          Submissions closed before your changed answer was submitted: it was not saved.
        </p>
      )}
      <div className="game-columns">
        <div className="game-main">
          {/* In the live game the panel is the way to take part; a member keeps only the team section. */}
          {!live || !isMember ? (
            takePart
          ) : hasSubcommunities ? (
            <section className="card game-play" aria-label="Team">
              <SubcommunitySelect
                game={game}
                joined={joined}
                value={subcommunity}
                locked={locked}
                onChange={setPicked}
              />
            </section>
          ) : null}
          <WaitingForOutcomes game={game} />
          <AddToCalendar game={game} />
          <p className="game-scoring">
            <ScoringLink />
          </p>
        </div>
        <GameSchedule game={game} now={now} />
      </div>
    </article>
  );
}

/**
 * /play/{community}/{series}/{uuid}: the game page; unknown games go to the series page (spec §2).
 * `prepareLive` starts loading what `liveSlot` shows, once the game is under way.
 */
export function GamePage({ liveSlot, prepareLive }: { liveSlot: LiveSlot; prepareLive?: () => unknown }) {
  const { community = '', series = '', uuid = '' } = useParams();
  const navigate = useNavigate();
  const { search, hash } = useLocation();
  const game = useGame(uuid);
  const back = seriesPath(community, series);
  // Pushes only while the game may change by itself or a boundary is near: otherwise the clock below
  // refreshes it, and socket.io is not loaded at all (decision 031).
  const now = useNow(30_000);
  useGameChannel(uuid, () => navigate(back, { replace: true }), !!game.data && worthWatching(game.data, now));
  useRefreshAtBoundary(game.data);

  if (game.isPending) return <Loading label="Loading game…" />;
  if (game.isError) {
    if (isApiError(game.error, 404) || isApiError(game.error, 400)) return <Navigate to={back} replace />;
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(game.error)}
        </p>
      </section>
    );
  }
  // A game reached under another series or community is shown at its own address.
  const canonical = gamePath(game.data);
  if (canonical !== gamePath({ uuid, community: { endpoint: community }, series: { endpoint: series } })) {
    return <Navigate to={`${canonical}${search}${hash}`} replace />;
  }
  return <GameView game={game.data} liveSlot={liveSlot} prepareLive={prepareLive} />;
}
