import type { HostCommunities } from '@hunch/contract';
import { Link, Navigate, Outlet, useOutletContext, useParams } from 'react-router';
import { errorText } from '../../api/client';
import { Loading } from '../../shared/loading';
import { useHostCommunities, useHostGames, useSeason } from './host-api';
import { HOST_HOME, hostCommunityPath, hostSeriesPath, NEW_GAME } from './host-paths';

/** What every console screen may read: whether the user is an admin, and what they host. */
export function useHostContext(): HostCommunities {
  return useOutletContext<HostCommunities>();
}

/** Where the console screen sits: Host › community › series › game, each a link but the last. */
function Breadcrumbs() {
  const { community, series, uuid } = useParams();
  const season = useSeason(community ?? '');
  const games = useHostGames(community ?? '');
  if (!community) return null;
  const doc = season.data?.doc;
  const communityName = doc?.community.name ?? community;
  const seriesName = doc?.series.find((s) => s.endpoint === series)?.name ?? series;
  const game = games.data?.games.find((g) => g.uuid === uuid);
  const crumbs: { to: string; text: string }[] = [
    { to: HOST_HOME, text: 'Host' },
    { to: hostCommunityPath(community), text: communityName },
  ];
  if (series) crumbs.push({ to: hostSeriesPath(community, series), text: seriesName ?? series });
  if (uuid) crumbs.push({ to: '', text: uuid === NEW_GAME ? 'New game' : (game?.name ?? 'Game') });
  return (
    <nav aria-label="Breadcrumb" className="host-crumbs">
      <ol>
        {crumbs.map((c, i) => (
          <li key={c.to || c.text}>
            {i < crumbs.length - 1 ? (
              <Link to={c.to} className="bar-title">
                {c.text}
              </Link>
            ) : (
              <span aria-current="page" className="bar-title">
                {c.text}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * /host and below: only for hosts and admins (hosting spec §2). Signed-out users and players who
 * host nothing go to /communities; the server refuses their calls anyway.
 */
export function HostShell() {
  const { profile, query } = useHostCommunities();
  // The console home has no breadcrumb to show: no bar, rather than an empty band.
  const { community } = useParams();
  if (profile === null) return <Navigate to="/communities" replace />;
  if (profile === undefined || query.isPending) return <Loading label="Loading the host console…" />;
  if (query.isError) {
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(query.error)}
        </p>
      </section>
    );
  }
  if (query.data === null) return <Navigate to="/communities" replace />;
  return (
    <>
      {community && (
        <header className="top-bar host-bar">
          <span className="brand" aria-hidden="true">
            Hunch
          </span>
          <Breadcrumbs />
        </header>
      )}
      <Outlet context={query.data} />
    </>
  );
}
