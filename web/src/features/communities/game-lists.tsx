import type { Game, GameStatus } from '@hunch/contract';
import { stateLabel } from '@hunch/rules';
import { format } from 'date-fns';
import { Link } from 'react-router';
import { gameImageUrl } from '../../api/asset-urls';
import { SafeImg } from '../../shared/safe-img';

const LISTS: { status: GameStatus; title: string; empty: string }[] = [
  { status: 'ongoing', title: 'Ongoing', empty: 'No games are running right now.' },
  { status: 'upcoming', title: 'Upcoming', empty: 'No games are scheduled yet.' },
  { status: 'recent', title: 'Recent', empty: 'No recent games.' },
];

/** The one schedule moment that matters for where the game stands. */
function scheduleLine(game: Game): { text: string; at: string } {
  const { open, standby, complete } = game.schedule;
  switch (game.state) {
    case 'closed':
      return { text: 'Opens', at: open };
    case 'open':
      return { text: game.synchronous ? 'Starts' : 'Closes', at: standby };
    case 'standby':
    case 'results':
      // Scoring may still run after schedule.complete; then the game has ended, results pending.
      return { text: Date.parse(complete) > Date.now() ? 'Results' : 'Ended', at: complete };
    case 'complete':
      return { text: 'Ended', at: complete };
  }
}

function GameCard({ game }: { game: Game }) {
  const label = stateLabel(game.state, game.synchronous);
  const when = scheduleLine(game);
  const date = new Date(when.at);
  return (
    <li className="game-card">
      <Link
        className="game-card-link"
        to={`/play/${game.community.endpoint}/${game.series.endpoint}/${game.uuid}`}
        aria-label={`${game.name}, ${game.series.name}`}
      >
        <SafeImg
          className="game-card-image"
          src={gameImageUrl(game.image || game.series.image)}
          alt=""
          loading="lazy"
        />
        <span className="game-card-body">
          <span className="game-card-name">{game.name}</span>
          <span className="game-card-series">{game.series.name}</span>
          <span className="game-card-footer">
            {label && <span className={`state-badge state-${game.state}`}>{label}</span>}
            {!Number.isNaN(date.getTime()) && (
              <span className="game-card-time">
                {when.text} <time dateTime={when.at}>{format(date, 'EEE, MMM d, h:mm a')}</time>
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** Ongoing / Upcoming / Recent lists of a community's games, by each game's status (spec §2). */
export function GameLists({ games }: { games: Game[] }) {
  return (
    <div className="game-lists">
      {LISTS.map(({ status, title, empty }) => {
        const list = games.filter((g) => g.status === status);
        return (
          <section key={status} className="game-list" aria-labelledby={`games-${status}`}>
            <h2 id={`games-${status}`} className="section-heading">
              {title}
            </h2>
            {list.length === 0 ? (
              <p className="empty">{empty}</p>
            ) : (
              <ul className="game-cards">
                {list.map((g) => (
                  <GameCard key={g.uuid} game={g} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
