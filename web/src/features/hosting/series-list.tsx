import type { HostGame, Season } from '@hunch/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { seriesFields } from './error-paths';
import { ProblemsProvider, TextField } from './fields';
import type { HostSeason } from './host-api';
import { hostSeriesPath } from './host-paths';
import { plural } from './host-text';
import { SaveBar, useSeasonSave } from './save-bar';
import { newSeries, seriesPathOf, withSeries } from './season-edit';

function NewSeriesForm({
  season,
  version,
  onClose,
}: {
  season: Season;
  version: HostSeason['version'];
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [series, setSeries] = useState(newSeries('', ''));
  const at = seriesPathOf(season.series.length);
  const save = useSeasonSave(seriesFields(at), () =>
    navigate(hostSeriesPath(season.community.endpoint, series.endpoint)),
  );
  return (
    <ProblemsProvider value={save.placed.byField}>
      <form className="form host-subform" aria-labelledby="new-series-heading" noValidate>
        <h3 id="new-series-heading">New series</h3>
        <TextField
          path={`${at}.endpoint`}
          label="Series endpoint"
          hint="Its address within the community: 3 to 40 of a-z, 0-9 and -."
          value={series.endpoint}
          onChange={(endpoint) => setSeries((s) => ({ ...s, endpoint: endpoint.toLowerCase() }))}
        />
        <TextField
          path={`${at}.name`}
          label="Series name"
          value={series.name}
          onChange={(name) => setSeries((s) => ({ ...s, name }))}
        />
        <SaveBar
          save={save}
          base={{ doc: season, version }}
          build={(doc) => withSeries(doc, -1, series)}
          part={(doc) => doc.series.find((s) => s.endpoint === series.endpoint) ?? null}
          saveLabel="Create series"
        />
        <button type="button" className="button-link" onClick={onClose}>
          Cancel
        </button>
      </form>
    </ProblemsProvider>
  );
}

/** The community's series, each with its number of games and how many are yet to open. */
export function SeriesList({
  season,
  version,
  games,
}: {
  season: Season;
  version: HostSeason['version'];
  games: HostGame[] | undefined;
}) {
  const [creating, setCreating] = useState(false);
  const community = season.community.endpoint;
  return (
    <section className="card host-section" aria-labelledby="series-heading">
      <h2 id="series-heading">Series</h2>
      {season.series.length === 0 ? (
        <p className="empty">No series yet: a series holds the games.</p>
      ) : (
        <ul className="host-links">
          {season.series.map((s) => {
            const upcoming = games?.filter((g) => g.series === s.endpoint && g.state === 'closed').length;
            return (
              <li key={s.endpoint}>
                <Link to={hostSeriesPath(community, s.endpoint)}>{s.name}</Link>
                <span className="note">
                  {plural(s.games.length, 'game')}
                  {upcoming ? `, ${upcoming} not open yet` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {creating ? (
        <NewSeriesForm season={season} version={version} onClose={() => setCreating(false)} />
      ) : (
        <button type="button" className="button button-secondary" onClick={() => setCreating(true)}>
          New series
        </button>
      )}
    </section>
  );
}
