import type { Game, GameStatus } from '@hunch/contract';
import { compareInList } from '@hunch/rules';
import { GameCard } from './game-card';

export interface GameListSpec {
  status: GameStatus;
  title: string;
  empty: string;
  /** Leave the list out altogether when it has no games (instead of showing `empty`). */
  hideWhenEmpty?: boolean;
}

const COMMUNITY_LISTS: GameListSpec[] = [
  { status: 'ongoing', title: 'Ongoing', empty: 'No games are running right now.' },
  { status: 'upcoming', title: 'Upcoming', empty: 'No games are scheduled yet.' },
  { status: 'recent', title: 'Recent', empty: 'No recent games.' },
];

/** Lists of games by each game's status (spec §2): ongoing, upcoming, recent by default. */
export function GameLists({ games, lists = COMMUNITY_LISTS }: { games: Game[]; lists?: GameListSpec[] }) {
  return (
    <div className="game-lists">
      {lists.map(({ status, title, empty, hideWhenEmpty }) => {
        const list = games.filter((g) => g.status === status).sort((a, b) => compareInList(status, a, b));
        if (hideWhenEmpty && list.length === 0) return null;
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
