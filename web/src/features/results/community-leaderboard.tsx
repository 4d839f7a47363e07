import { Link } from 'react-router';
import { communityImageUrl } from '../../api/asset-urls';
import { useParticipation } from '../../api/game-queries';
import { useProfile } from '../../api/use-profile';
import { communityPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import { formatCount } from './number-format';
import { formatAverage, rankClass } from './rank-style';
import { BoardEnd, useRankedBoard } from './ranked-board';
import { useCommunityLeaderboard } from './results-api';
import { hasSubcommunities, ToLeaderboard, useResultsGame } from './results-shell';

/** results/communityLeaderboard: participating communities by average score. */
export function CommunityLeaderboard() {
  const game = useResultsGame();
  const profile = useProfile();
  const board = useCommunityLeaderboard(game.uuid);
  const participation = useParticipation(game.uuid, Boolean(profile));
  const { rows, status } = useRankedBoard(board, 'Loading community rankings…');
  if (status) return status;
  const mine = participation.data?.entry.subcommunity?.endpoint;

  return (
    <section className="results-section" aria-labelledby="communities-heading">
      <h2 id="communities-heading" className="visually-hidden">
        Community Rankings
      </h2>
      {rows.length === 0 ? (
        <p className="card empty-card">No community has a score in this game yet.</p>
      ) : (
        <div className="card table-card">
          <table className="leaderboard">
            <thead>
              <tr>
                <th scope="col" className="lb-rank">
                  Rank
                </th>
                <th scope="col">Community</th>
                <th scope="col" className="lb-num">
                  <span className="th-long">Average score</span>
                  <span className="th-short" aria-hidden="true">
                    Avg.
                  </span>
                </th>
                <th scope="col" className="lb-num">
                  Players
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ key, row }) => {
                const isMine = key === mine;
                const cls = ['leaderboard-row', rankClass(row.r), isMine ? 'is-viewer' : '']
                  .filter(Boolean)
                  .join(' ');
                return (
                  <tr key={key} className={cls} aria-current={isMine ? 'true' : undefined}>
                    <td className="lb-rank">
                      <span className="rank-pill">{row.r}</span>
                    </td>
                    <td className="lb-player">
                      <div className="lb-player-inner">
                        <SafeImg
                          className="lb-avatar lb-avatar-square"
                          src={communityImageUrl(row.img)}
                          alt=""
                          loading="lazy"
                        />
                        <span className="lb-name">
                          <Link className="lb-username" to={communityPath(key)}>
                            {row.name}
                          </Link>
                          {isMine && <span className="mini-badge mini-badge-you">Your team</span>}
                        </span>
                      </div>
                    </td>
                    <td className="lb-num">{formatAverage(row.a)}</td>
                    <td className="lb-num">{formatCount(row.c)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <BoardEnd board={board} loadingLabel="Loading more communities…" />
    </section>
  );
}

/** Community Rankings exist only for games with subcommunities; otherwise the player rankings. */
export function CommunityLeaderboardRoute() {
  const game = useResultsGame();
  if (!hasSubcommunities(game)) return <ToLeaderboard />;
  return <CommunityLeaderboard />;
}
