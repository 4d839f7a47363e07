import type { Game } from '@hunch/contract';
import { Link, Navigate, Outlet, useNavigate, useOutletContext, useParams } from 'react-router';
import { gameImageUrl } from '../../api/asset-urls';
import { errorText, isApiError } from '../../api/client';
import { useGame } from '../../api/game-queries';
import { useGameChannel } from '../../api/use-game-channel';
import { Loading } from '../../shared/loading';
import { NavItem } from '../../shared/nav-item';
import { groupDigits } from '../../shared/number-text';
import { gamePath, resultsPath, seriesPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import { ScoringLink } from '../../shared/scoring-link';
import { useDocumentTitle } from '../../shared/use-document-title';
import { ShareResult } from './share-result';

/** The game whose results are shown, for the results sub-pages. */
export function useResultsGame(): Game {
  return useOutletContext<Game>();
}

export function hasSubcommunities(game: Game): boolean {
  return Object.keys(game.subcommunities).length > 0;
}

/** .../results: only for complete games, else back to the game page (spec §2). */
export function ResultsShell() {
  const { community = '', series = '', uuid = '' } = useParams();
  const navigate = useNavigate();
  const game = useGame(uuid);
  useGameChannel(uuid, () => navigate(seriesPath(community, series), { replace: true }));
  useDocumentTitle(game.data ? `Results · ${game.data.name}` : 'Results');

  if (game.isPending) return <Loading label="Loading results…" />;
  if (game.isError) {
    if (isApiError(game.error, 404) || isApiError(game.error, 400)) {
      return <Navigate to={seriesPath(community, series)} replace />;
    }
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(game.error)}
        </p>
      </section>
    );
  }
  const g = game.data;
  if (g.state !== 'complete') return <Navigate to={gamePath(g)} replace />;

  return (
    <div className="page results-page">
      <header className="results-header">
        <SafeImg className="results-image" src={gameImageUrl(g.image || g.series.image)} alt="" />
        <div className="results-title">
          <p className="eyebrow">
            <Link to={gamePath(g)}>{g.series.name}</Link> · Results
          </p>
          <h1>{g.name}</h1>
          <p className="note">
            {groupDigits(g.participants)} {g.participants === 1 ? 'player' : 'players'}
          </p>
          <div className="results-actions">
            <ShareResult game={g} />
            <ScoringLink />
          </div>
        </div>
      </header>
      <nav aria-label="Results" className="sub-tabs">
        <NavItem to={resultsPath(g, 'leaderboard')} className="sub-tab">
          Player Rankings
        </NavItem>
        {hasSubcommunities(g) && (
          <NavItem to={resultsPath(g, 'communityLeaderboard')} className="sub-tab">
            Community Rankings
          </NavItem>
        )}
        <NavItem to={resultsPath(g, 'breakdown')} className="sub-tab">
          Question Breakdown
        </NavItem>
      </nav>
      <Outlet context={g} />
    </div>
  );
}

/** The empty (or unknown) results path shows the player rankings (spec §2). */
export function ToLeaderboard() {
  const game = useResultsGame();
  return <Navigate to={resultsPath(game, 'leaderboard')} replace />;
}
