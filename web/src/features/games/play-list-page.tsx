import type { GameStatus } from '@hunch/contract';
import { compareInList } from '@hunch/rules';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { GameCard } from '../../shared/game-card';
import { Loading } from '../../shared/loading';
import { useDocumentTitle } from '../../shared/use-document-title';
import { usePlayGames } from './game-api';

interface ListSpec {
  title: string;
  empty: string;
  hint: { text: string; to: string; label: string };
}

const LISTS: Record<Extract<GameStatus, 'ongoing' | 'upcoming' | 'recent'>, ListSpec> = {
  ongoing: {
    title: 'Happening now',
    empty: 'Nothing is happening in your communities right now.',
    hint: { text: 'See what is coming up next.', to: '/play/upcoming', label: 'Upcoming games' },
  },
  upcoming: {
    title: 'Happening soon',
    empty: 'No games are scheduled in your communities yet.',
    hint: {
      text: 'Join more communities to find more games.',
      to: '/communities/search',
      label: 'Find communities',
    },
  },
  recent: {
    title: 'Recent results',
    empty: 'No results from the last week yet.',
    hint: { text: 'Play a game now and see how you rank.', to: '/play/current', label: 'Happening now' },
  },
};

/** /play/current, /play/upcoming, /play/recent: the player's games of one status (spec §2). */
export function PlayListPage({ status }: { status: keyof typeof LISTS }) {
  const spec = LISTS[status];
  useDocumentTitle(spec.title);
  const games = usePlayGames();

  let body: ReactNode;
  if (games.isPending) body = <Loading label="Loading games…" />;
  else if (games.isError) {
    body = (
      <p className="form-error" role="alert">
        {errorText(games.error)}
      </p>
    );
  } else {
    const list = games.data.filter((g) => g.status === status).sort((a, b) => compareInList(status, a, b));
    body =
      list.length === 0 ? (
        <div className="card empty-card">
          <p>{spec.empty}</p>
          <p className="note">{spec.hint.text}</p>
          <Link className="button button-secondary" to={spec.hint.to}>
            {spec.hint.label}
          </Link>
        </div>
      ) : (
        <ul className="game-cards game-cards-wide">
          {list.map((g) => (
            <GameCard key={g.uuid} game={g} showCommunity />
          ))}
        </ul>
      );
  }

  return (
    <section className="page" aria-labelledby="play-list-title" aria-busy={games.isFetching}>
      <h1 id="play-list-title" className="list-heading">
        {spec.title}
      </h1>
      {body}
    </section>
  );
}
