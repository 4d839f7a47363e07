import type { HistoryGame } from '@hunch/contract';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { Loading } from '../../shared/loading';
import { resultsPath } from '../../shared/paths';
import { useGameHistory } from './game-history';

const counts = new Intl.NumberFormat('en-US');
const dates = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function HistoryItem({ game }: { game: HistoryGame }) {
  return (
    <li className="history-item">
      <div className="history-main">
        <Link className="history-game" to={resultsPath(game)}>
          {game.name}
          <span className="visually-hidden">: results</span>
        </Link>
        <span className="history-where">
          {game.community.name} · {game.series.name}
        </span>
        <time className="history-date" dateTime={game.complete}>
          {dates.format(new Date(game.complete))}
        </time>
      </div>
      <dl className="history-figures">
        <div>
          <dt>Score</dt>
          <dd>{counts.format(game.score)}</dd>
        </div>
        <div>
          <dt>Rank</dt>
          <dd>
            {counts.format(game.rank)} <span className="history-of">of {counts.format(game.players)}</span>
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** The profile's game history: game, date, score, rank of N, and a link to each game's results. */
export function ProfileGameHistory({ username, isOwner }: { username: string; isOwner: boolean }) {
  const id = useId();
  const history = useGameHistory(username);
  const games = history.data?.pages.flatMap((p) => p.games) ?? [];
  let body: ReactNode;
  if (history.isPending) body = <Loading label="Loading games…" />;
  else if (history.isError && games.length === 0) {
    body = (
      <p className="form-error" role="alert">
        {errorText(history.error)}
      </p>
    );
  } else if (games.length === 0) {
    body = (
      <p className="empty">{isOwner ? 'You have no completed games yet.' : 'No completed games yet.'}</p>
    );
  } else {
    body = (
      <>
        <ul className="history-list">
          {games.map((g) => (
            <HistoryItem key={g.uuid} game={g} />
          ))}
        </ul>
        {history.hasNextPage && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
          >
            {history.isFetchingNextPage ? 'Loading older games…' : 'Show older games'}
          </button>
        )}
      </>
    );
  }
  return (
    <section className="card profile-history" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="section-heading">
        Game history
      </h2>
      {body}
    </section>
  );
}
