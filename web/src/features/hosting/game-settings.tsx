import type { SeasonGame } from '@hunch/contract';
import { SCHEDULE_LABELS, viewerTimeZone } from '../../shared/time-text';
import { CheckField, DateTimeField, ListField, TextField } from './fields';
import { ImageField } from './image-field';
import { laterOf } from './schedule-time';
import { textOrLeftOut } from './season-edit';

/**
 * A game's own fields: key, name, image, schedule, live or not, speed bonus, subcommunities. Once
 * the game has opened (`locked`), only its name, image and a later standby or complete may change
 * (the server refuses the rest, hosting spec §2).
 */
export function GameSettings({
  at,
  game,
  isNew,
  locked,
  saved,
  seriesName,
  onChange,
}: {
  at: string;
  game: SeasonGame;
  isNew: boolean;
  locked: boolean;
  /** The schedule as stored, for the earliest a locked game's times may take. */
  saved: SeasonGame['schedule'] | undefined;
  seriesName: string;
  onChange: (patch: Partial<SeasonGame>) => void;
}) {
  const labels = game.synchronous ? SCHEDULE_LABELS.live : SCHEDULE_LABELS.async;
  const now = new Date().toISOString();
  /** A locked game's standby or complete that has passed stays; one ahead may only move later. */
  const timeLocked = (field: 'standby' | 'complete') =>
    locked && saved !== undefined && Date.parse(saved[field]) <= Date.now();
  return (
    <section className="card form host-section" aria-labelledby="game-settings-heading">
      <h2 id="game-settings-heading">Game</h2>
      <TextField
        path={`${at}.key`}
        label="Key"
        hint={
          isNew
            ? 'Unique in the series: 1 to 40 of a-z, 0-9, - and _. It cannot change once saved.'
            : 'The game’s identity in season files; it cannot change.'
        }
        value={game.key}
        readOnly={!isNew}
        onChange={(key) => onChange({ key: key.toLowerCase() })}
      />
      <TextField
        path={`${at}.name`}
        label="Name (optional)"
        hint={`Without one the game is called ${seriesName}.`}
        value={game.name ?? ''}
        maxLength={120}
        onChange={(name) => onChange({ name: textOrLeftOut(name) })}
      />
      <ImageField
        path={`${at}.image`}
        label="Game image (optional)"
        kind="games"
        value={game.image}
        onChange={(image) => onChange({ image })}
      />
      <fieldset className="host-group">
        <legend>Schedule</legend>
        <p className="field-hint">
          Times are in your time zone ({viewerTimeZone()}).
          {locked &&
            ` The game has opened: ${labels.standby} and ${labels.complete} may only move later, while they are ahead.`}
        </p>
        <div className="host-grid host-grid-3">
          <DateTimeField
            path={`${at}.schedule.open`}
            label={labels.open}
            value={game.schedule.open}
            disabled={locked}
            onChange={(open) => onChange({ schedule: { ...game.schedule, open } })}
          />
          {(['standby', 'complete'] as const).map((field) => (
            <DateTimeField
              key={field}
              path={`${at}.schedule.${field}`}
              label={labels[field]}
              value={game.schedule[field]}
              disabled={timeLocked(field)}
              min={locked && saved ? laterOf(saved[field], now) : undefined}
              onChange={(iso) => onChange({ schedule: { ...game.schedule, [field]: iso } })}
            />
          ))}
        </div>
      </fieldset>
      <CheckField
        path={`${at}.synchronous`}
        label="Live game"
        hint="Players meet in a lobby and answer each question together, against the clock."
        checked={game.synchronous}
        disabled={locked}
        // The speed bonus only counts in a live game: it goes off with it, so no game keeps a setting
        // that does nothing.
        onChange={(synchronous) =>
          onChange(synchronous ? { synchronous } : { synchronous, speed_bonus: false })
        }
      />
      <CheckField
        path={`${at}.speed_bonus`}
        label="Speed bonus"
        hint="Live games only: a quicker answer keeps more of its points (up to a tenth)."
        checked={game.speed_bonus}
        disabled={locked || !game.synchronous}
        onChange={(speed_bonus) => onChange({ speed_bonus })}
      />
      <ListField
        path={`${at}.subcommunities`}
        label="Subcommunities (optional)"
        hint="Endpoints of communities whose members play as teams, comma-separated."
        value={game.subcommunities}
        disabled={locked}
        onChange={(subcommunities) => onChange({ subcommunities })}
      />
    </section>
  );
}
