import type { PlayerRow } from '@hunch/contract';
import { headToHeadText } from '@hunch/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { userImageUrl } from '../../api/asset-urls';
import { errorText } from '../../api/client';
import { useParticipation } from '../../api/game-queries';
import { useProfile } from '../../api/use-profile';
import { profilePath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import type { Ranked } from './leaderboard-pages';
import { formatCount } from './number-format';
import { formatPercentile, formatScore, rankClass } from './rank-style';
import { BoardEnd, useRankedBoard } from './ranked-board';
import { fetchMyBoardPage, playerBoardKey, usePlayerLeaderboard } from './results-api';
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
    // The viewer's row takes focus after 'Jump to my row' (by script only: tabIndex -1).
    <tr
      className={cls}
      aria-current={isViewer ? 'true' : undefined}
      id={isViewer ? MY_ROW_ID : undefined}
      tabIndex={isViewer ? -1 : undefined}
    >
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

const MY_ROW_ID = 'my-leaderboard-row';

/** Boards longer than this offer 'Jump to my row' (about a phone screen of rows). */
const LONG_BOARD = 12;

/**
 * 'Jump to my row': shows the viewer's row wherever it is. Loaded already: scrolls to it. Else the
 * board restarts at the page holding it (me=1), with the pages above on request, so a rank far
 * down a big game costs one page, not every page before it. Focus moves to the row either way.
 */
function useJumpToMyRow(uuid: string, username: string | undefined) {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(1);
  const [focusPending, setFocusPending] = useState(false);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const jump = async (loaded: boolean) => {
    if (!username) return;
    setMessage('');
    if (loaded) {
      setFocusPending(true);
      return;
    }
    setBusy(true);
    try {
      const found = await fetchMyBoardPage(uuid, username);
      if (!found) {
        setMessage('You have no row on this leaderboard.');
        return;
      }
      // The page just read starts the board, so it is not asked for twice.
      queryClient.setQueryData(playerBoardKey(uuid, found.page), {
        pages: [found.rows],
        pageParams: [found.page],
      });
      setStart(found.page);
      setFocusPending(true);
    } catch (err) {
      setMessage(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const toTop = () => {
    setStart(1);
    window.scrollTo({ top: 0 });
  };
  return { start, jump, toTop, busy, message, focusPending, focused: () => setFocusPending(false) };
}

/** results/leaderboard: players by rank, loading further pages on scroll (spec §2, §4). */
export function PlayerLeaderboard() {
  const game = useResultsGame();
  const profile = useProfile();
  const participation = useParticipation(game.uuid, Boolean(profile));
  const viewer = profile?.username.toLowerCase();
  const jumper = useJumpToMyRow(game.uuid, profile?.username);
  const board = usePlayerLeaderboard(game.uuid, jumper.start);
  const { rows, status } = useRankedBoard(board, 'Loading rankings…');
  const hasMine = rows.some((item) => item.key.toLowerCase() === viewer);
  const { focusPending, focused } = jumper;
  useEffect(() => {
    if (!focusPending || !hasMine) return;
    const row = document.getElementById(MY_ROW_ID);
    if (!row) return;
    focused();
    row.scrollIntoView({ block: 'center' });
    row.focus({ preventScroll: true });
  }, [focusPending, hasMine, focused]);
  if (status) return status;

  const entry = participation.data?.entry;
  const teams = hasSubcommunities(game);
  const long = game.participants > LONG_BOARD;
  return (
    <section className="results-section" aria-labelledby="players-heading">
      <h2 id="players-heading" className="visually-hidden">
        Player Rankings
      </h2>
      {entry && entry.rank !== null && (
        <div className="card your-standing your-standing-row">
          <p>
            You ranked <strong>#{entry.rank}</strong>
            {entry.score !== null && (
              <>
                {' '}
                with <strong>{formatScore(entry.score)}</strong> points
              </>
            )}
            {entry.subcommunity && <> for {entry.subcommunity.name}</>}.
          </p>
          {long && (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => void jumper.jump(hasMine)}
              disabled={jumper.busy}
              aria-controls="players-table"
            >
              {jumper.busy ? 'Finding your row…' : 'Jump to my row'}
            </button>
          )}
        </div>
      )}
      <p className="visually-hidden" aria-live="polite">
        {jumper.message}
      </p>
      {jumper.message && <p className="note">{jumper.message}</p>}
      {board.hasPreviousPage && (
        <div className="list-end">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void board.fetchPreviousPage()}
            disabled={board.isFetchingPreviousPage}
          >
            {board.isFetchingPreviousPage ? 'Loading players above…' : 'Show players above'}
          </button>
          <button type="button" className="button button-secondary" onClick={jumper.toTop}>
            Back to the top
          </button>
        </div>
      )}
      {rows.length === 0 ? (
        <p className="card empty-card">Nobody has a score in this game yet.</p>
      ) : (
        <div className="card table-card">
          <table className="leaderboard" id="players-table">
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
            {formatCount(rows.length)} {rows.length === 1 ? 'player' : 'players'}{' '}
            {jumper.start > 1 && board.hasPreviousPage ? 'shown' : 'ranked'}.
          </p>
        )}
      </BoardEnd>
    </section>
  );
}
