import { Link, Navigate, useParams } from 'react-router';
import { gameImageUrl } from '../../api/asset-urls';
import { errorText, isApiError } from '../../api/client';
import { type GameListSpec, GameLists } from '../../shared/game-lists';
import { Loading } from '../../shared/loading';
import { communityPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useSeries } from './game-api';

const SERIES_LISTS: GameListSpec[] = [
  { status: 'ongoing', title: 'Happening now', empty: 'No game of this series is running right now.' },
  { status: 'upcoming', title: 'Happening soon', empty: 'No upcoming games are scheduled yet.' },
  { status: 'recent', title: 'Recent results', empty: 'No results from the last week.' },
  { status: 'past', title: 'Earlier games', empty: '', hideWhenEmpty: true },
];

/** /play/{community}/{series}: the series header and its games; unknown series go to /play (spec §2). */
export function SeriesPage() {
  const { community = '', series = '' } = useParams();
  const query = useSeries(community, series);
  useDocumentTitle(query.data?.name ?? 'Series');

  if (query.isPending) return <Loading label="Loading series…" />;
  if (query.isError) {
    if (isApiError(query.error, 404) || isApiError(query.error, 400)) return <Navigate to="/play" replace />;
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(query.error)}
        </p>
      </section>
    );
  }

  const s = query.data;
  return (
    <article className="page series-page">
      <header className="card community-header">
        <SafeImg className="community-hero" src={gameImageUrl(s.image)} alt="" />
        <div className="community-header-body">
          <p className="eyebrow">Series</p>
          <h1 className="community-name">{s.name}</h1>
          <p className="community-endpoint">
            by <Link to={communityPath(s.community.endpoint)}>{s.community.name}</Link>
          </p>
          {s.description && <p className="community-description">{s.description}</p>}
          <p className="note">{s.games.length === 1 ? '1 game' : `${s.games.length} games`} in this series</p>
        </div>
      </header>
      <GameLists games={s.games} lists={SERIES_LISTS} />
    </article>
  );
}
