import type { HostGame, Season, SeasonSeries } from '@hunch/contract';
import { Link, Navigate, useParams } from 'react-router';
import { errorText } from '../../api/client';
import { Loading } from '../../shared/loading';
import { formatWhen } from '../../shared/time-text';
import { useDocumentTitle } from '../../shared/use-document-title';
import { seriesFields } from './error-paths';
import { ProblemsProvider, TextField } from './fields';
import { GameStateLine } from './game-state-line';
import { type HostSeason, useHostGames, useSeason } from './host-api';
import { hostCommunityPath, hostGamePath, newGamePath } from './host-paths';
import { conflictLines, plural } from './host-text';
import { ImageField } from './image-field';
import { SaveBar, useSeasonSave } from './save-bar';
import { seriesIndex, seriesPathOf, settingsToSave, textOrLeftOut, withSeries } from './season-edit';
import { useDraft } from './use-draft';
import { useLeaveGuard } from './use-leave-guard';

function SeriesSettings({
  season,
  version,
  si,
}: {
  season: Season;
  version: HostSeason['version'];
  si: number;
}) {
  const at = seriesPathOf(si);
  const [draft, setDraft, dirty, conflicts] = useDraft(season.series[si]!);
  useLeaveGuard(dirty, 'Leave the series settings? Your changes are not saved.');
  const save = useSeasonSave(seriesFields(at));
  const set = (patch: Partial<SeasonSeries>) => setDraft((s) => ({ ...s, ...patch }));
  return (
    <ProblemsProvider value={save.placed.byField} saved={season}>
      <form className="card form host-form" aria-labelledby="series-settings-heading" noValidate>
        <h2 id="series-settings-heading">Series settings</h2>
        <TextField path={`${at}.name`} label="Name" value={draft.name} onChange={(name) => set({ name })} />
        <TextField
          path={`${at}.endpoint`}
          label="Endpoint"
          hint="The series' address; it cannot change once created."
          value={draft.endpoint}
          readOnly
        />
        <TextField
          path={`${at}.description`}
          label="Description"
          multiline
          value={draft.description ?? ''}
          onChange={(description) => set({ description: textOrLeftOut(description) })}
        />
        <ImageField
          path={`${at}.image`}
          label="Series image"
          kind="games"
          value={draft.image ?? undefined}
          onChange={(image) => set({ image })}
        />
        <SaveBar
          save={save}
          // The games are edited on their own screens: only the settings come from this form.
          base={{ doc: season, version }}
          build={(doc) => {
            const i = seriesIndex(doc, draft.endpoint);
            return i < 0
              ? null
              : withSeries(doc, i, { ...settingsToSave(draft), games: doc.series[i]!.games });
          }}
          part={(doc) => ({ ...doc.series[seriesIndex(doc, draft.endpoint)], games: undefined })}
          saveLabel="Save series"
          conflicts={conflictLines(conflicts, draft)}
        />
      </form>
    </ProblemsProvider>
  );
}

function GameRow({
  community,
  series,
  game,
  hosted,
}: {
  community: string;
  series: SeasonSeries;
  game: SeasonSeries['games'][number];
  hosted: HostGame | undefined;
}) {
  const name = game.name ?? series.name;
  return (
    <li className="host-game">
      <div className="host-game-main">
        <h3 className="host-game-name">
          {hosted ? <Link to={hostGamePath(community, series.endpoint, hosted.uuid)}>{name}</Link> : name}
        </h3>
        <p>
          {hosted ? (
            <GameStateLine
              state={hosted.state}
              schedule={hosted.schedule}
              pending={hosted.questions.filter((q) => q.outcome === 'pending' && !q.voided).length}
              live={game.synchronous}
            />
          ) : (
            <span className="note">
              State unknown · opens{' '}
              <time dateTime={game.schedule.open}>{formatWhen(game.schedule.open)}</time>
            </span>
          )}
        </p>
        <p className="note">
          key {game.key}
          {hosted && hosted.participants > 0 && <> · {plural(hosted.participants, 'player')}</>} ·{' '}
          {plural(game.questions.length, 'question')}
        </p>
      </div>
      <Link
        className="button button-secondary host-small-button"
        to={newGamePath(community, series.endpoint, game.key)}
      >
        Duplicate<span className="visually-hidden"> {name}</span>
      </Link>
    </li>
  );
}

/** /host/{community}/{series}: the series' settings and its games with their state. */
export function SeriesConsolePage() {
  const { community = '', series: endpoint = '' } = useParams();
  const season = useSeason(community);
  const games = useHostGames(community);
  const si = season.data ? seriesIndex(season.data.doc, endpoint) : -1;
  const series = season.data?.doc.series[si];
  useDocumentTitle(series ? `Host · ${series.name}` : 'Host');

  if (season.isPending) return <Loading label="Loading the series…" />;
  if (season.isError) {
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(season.error)}
        </p>
      </section>
    );
  }
  if (!series) return <Navigate to={hostCommunityPath(community)} replace />;
  const byKey = new Map(games.data?.games.filter((g) => g.series === endpoint).map((g) => [g.key, g]));
  return (
    <article className="page host-page" aria-labelledby="series-heading">
      <header>
        <p className="eyebrow">Series</p>
        <h1 id="series-heading">{series.name}</h1>
        <p className="note">
          /{community}/{series.endpoint}
        </p>
      </header>
      <div className="host-columns">
        <section className="card host-section host-column" aria-labelledby="games-heading">
          <div className="host-heading-row">
            <h2 id="games-heading">Games</h2>
            <Link className="button button-primary" to={newGamePath(community, endpoint)}>
              New game
            </Link>
          </div>
          {games.isError && (
            <p className="form-error" role="alert">
              Game states could not be read: {errorText(games.error)}
            </p>
          )}
          {series.games.length === 0 ? (
            <p className="empty">No games yet.</p>
          ) : (
            <ul className="host-games">
              {/* Newest first: the games a host works on are the coming ones. */}
              {[...series.games]
                .sort((a, b) => Date.parse(b.schedule.open) - Date.parse(a.schedule.open))
                .map((g) => (
                  <GameRow
                    key={g.key}
                    community={community}
                    series={series}
                    game={g}
                    hosted={byKey.get(g.key)}
                  />
                ))}
            </ul>
          )}
        </section>
        <div className="host-column">
          <SeriesSettings season={season.data.doc} version={season.data.version} si={si} />
        </div>
      </div>
    </article>
  );
}
