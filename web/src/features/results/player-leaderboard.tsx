import type { PlayerRow } from '@hunch/contract';
import { headToHeadText } from '@hunch/rules';
import { Link } from 'react-router';
import { userImageUrl } from '../../api/asset-urls';
import { useParticipation } from '../../api/game-queries';
import { useProfile } from '../../api/use-profile';
import { profilePath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import type { Ranked } from './leaderboard-pages';
import { formatPercentile, formatScore, rankClass } from './rank-style';
import { BoardEnd, useRankedBoard } from './ranked-board';
import { usePlayerLeaderboard } from './results-api';
import { hasSubcommunities, useResultsGame } from './results-shell';

interface RowProps {
  item: Ranked<PlayerRow>;
  isViewer: boolean;
  teamName: string | null;
}

function PlayerRowView({ item: { key: username, row }, isViewer, teamName }: RowProps) {
  const h2h = row.hths === null ? null : headToHeadText(row.hths);
  const cls = ['leaderboard-row', rankClass(row.r), isViewer ? 'is-viewer' : ''].filter(Boolean).join(' ');
  return (
    <tr className={cls} aria-current={isViewer ? 'true' : undefined}>
      <td className="lb-rank">
        <span className="rank-pill">{row.r}</span>
      </td>
      <td className="lb-player">
        <div className="lb-player-inner">
          <SafeImg className="avatar lb-avatar" src={userImageUrl(row.img)} alt="" loading="lazy" />
          <div className="lb-player-text">
            <span className="lb-name">
              {row.pvt ? (
                <span className="lb-username">{username}</span>
              ) : (
                <Link className="lb-username" to={profilePath(username)}>
                  {username}
                </Link>
              )}
              {row.pvt && <span className="mini-badge">Private</span>}
              {isViewer && <span className="mini-badge mini-badge-you">You</span>}
            </span>
            {(teamName || row.cr !== null || h2h) && (
              <span className="lb-meta">
                {teamName && (
                  <span>
                    {teamName}
                    {row.cr !== null && (
                      <>
                        {' · '}
                        <span className="visually-hidden">community rank </span>#{row.cr}
                      </>
                    )}
                  </span>
                )}
                {!teamName && row.cr !== null && <span>Community rank #{row.cr}</span>}
                {h2h && <span className={row.hths! < 0 ? 'h2h h2h-behind' : 'h2h h2h-ahead'}>{h2h}</span>}
              </span>
            )}
          </div>
        </div>
      </td>
      <td className="lb-num">{formatScore(row.s)}</td>
      <td className="lb-num">{formatPercentile(row.p)}</td>
    </tr>
  );
}

/** results/leaderboard: players by rank, loading further pages on scroll (spec §2, §4). */
export function PlayerLeaderboard() {
  const game = useResultsGame();
  const profile = useProfile();
  const board = usePlayerLeaderboard(game.uuid);
  const participation = useParticipation(game.uuid, Boolean(profile));
  const { rows, status } = useRankedBoard(board, 'Loading rankings…');
  if (status) return status;

  const viewer = profile?.username.toLowerCase();
  const entry = participation.data?.entry;
  const teams = hasSubcommunities(game);
  return (
    <section className="results-section" aria-labelledby="players-heading">
      <h2 id="players-heading" className="visually-hidden">
        Player Rankings
      </h2>
      {entry && entry.rank !== null && (
        <p className="card your-standing">
          You ranked <strong>#{entry.rank}</strong>
          {entry.score !== null && (
            <>
              {' '}
              with <strong>{formatScore(entry.score)}</strong> points
            </>
          )}
          {entry.subcommunity && <> for {entry.subcommunity.name}</>}.
        </p>
      )}
      {rows.length === 0 ? (
        <p className="card empty-card">Nobody has a score in this game yet.</p>
      ) : (
        <div className="card table-card">
          <table className="leaderboard">
            <thead>
              <tr>
                <th scope="col" className="lb-rank">
                  Rank
                </th>
                <th scope="col">Player</th>
                <th scope="col" className="lb-num">
                  Score
                </th>
                <th scope="col" className="lb-num">
                  <span className="th-long">Percentile</span>
                  <span className="th-short" aria-hidden="true">
                    Pct.
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((item) => (
                <PlayerRowView
                  key={item.key}
                  item={item}
                  isViewer={item.key.toLowerCase() === viewer}
                  teamName={teams && item.row.c ? (game.subcommunities[item.row.c] ?? item.row.c) : null}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <BoardEnd board={board} loadingLabel="Loading more players…">
        {board.hasNextPage && !board.isFetching && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void board.fetchNextPage()}
          >
            Show more players
          </button>
        )}
        {!board.hasNextPage && rows.length > 0 && (
          <p className="note">
            {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'player' : 'players'} ranked.
          </p>
        )}
      </BoardEnd>
    </section>
  );
}
