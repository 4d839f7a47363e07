import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { Loading } from '../../shared/loading';
import { GameEditor } from './game-editor';
import { useHostGames, useSeason } from './host-api';
import { hostGamePath, hostSeriesPath, NEW_GAME } from './host-paths';
import {
  duplicateGame,
  editableGame,
  gameIndex,
  laterSchedule,
  newGame,
  nextKey,
  seriesIndex,
} from './season-edit';

function Problem({ text }: { text: string }) {
  return (
    <section className="page">
      <p className="form-error" role="alert">
        {text}
      </p>
    </section>
  );
}

/**
 * A game the console does not list: deleted in another tab or by another host (whose save then
 * refreshed this page's lists), or an old link. Said, not skipped: the host may have been editing it.
 */
function GameGone({ seriesPath, seriesName }: { seriesPath: string; seriesName: string }) {
  return (
    <section className="page">
      <p className="form-error" role="alert">
        This game is not in the console: it has been deleted, perhaps in another tab or by another host.
      </p>
      <p>
        <Link to={seriesPath}>Back to {seriesName}</Link>
      </p>
    </section>
  );
}

/**
 * /host/{community}/{series}/{uuid}: the game editor; /host/{community}/{series}/new for a game not
 * saved yet (?from={key} duplicates a game of the series). The uuid is found through the console's
 * game list, which names each game's series and key: the document's identity of a game.
 */
export function GameEditorPage() {
  const { community = '', series = '', uuid = '' } = useParams();
  const [params] = useSearchParams();
  const season = useSeason(community);
  const games = useHostGames(community);
  const isNew = uuid === NEW_GAME;

  if (season.isPending || (!isNew && games.isPending)) return <Loading label="Loading the game…" />;
  if (season.isError) return <Problem text={errorText(season.error)} />;
  const { doc, version } = season.data;
  const si = seriesIndex(doc, series);
  if (si < 0) return <Navigate to={hostSeriesPath(community, series)} replace />;
  const s = doc.series[si]!;

  if (isNew) {
    const from = params.get('from');
    const source = from ? s.games[gameIndex(s, from)] : undefined;
    const keys = s.games.map((g) => g.key);
    const now = new Date();
    const initial = source
      ? duplicateGame(source, nextKey(source.key, keys), laterSchedule(source.schedule, now))
      : editableGame(newGame(nextKey(keys.at(-1) ?? 'game-0', keys), now));
    // A new key per draft: a second 'New game' starts afresh.
    return (
      <GameEditor
        key={`new:${from ?? ''}`}
        season={doc}
        version={version}
        si={si}
        gi={-1}
        initial={initial}
        hosted={undefined}
      />
    );
  }

  if (games.isError) return <Problem text={errorText(games.error)} />;
  const hosted = games.data?.games.find((g) => g.uuid === uuid);
  if (!hosted) return <GameGone seriesPath={hostSeriesPath(community, series)} seriesName={s.name} />;
  // A game's address names its series; an old link to another series is sent to the right one.
  if (hosted.series !== series) return <Navigate to={hostGamePath(community, hosted.series, uuid)} replace />;
  const gi = gameIndex(s, hosted.key);
  if (gi < 0) return <Problem text={`The season document has no game ${hosted.key} in ${series}.`} />;
  return (
    <GameEditor
      key={uuid}
      season={doc}
      version={version}
      si={si}
      gi={gi}
      initial={editableGame(s.games[gi]!)}
      hosted={hosted}
    />
  );
}
