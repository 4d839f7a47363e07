import type { Game } from '@hunch/contract';
import { nextStateChangeAt } from '@hunch/rules';
import { formatWhen, scheduleRows, viewerZoneName } from '../../shared/time-text';
import { Countdown } from './countdown';

/** The Schedule section: open, standby and complete in the viewer's time zone, with the countdown. */
export function GameSchedule({ game, now }: { game: Game; now: Date }) {
  const next = nextStateChangeAt(game.schedule, now);
  const nextMs = next?.getTime() ?? null;
  return (
    <section className="card game-schedule" aria-labelledby="schedule-heading">
      <h2 id="schedule-heading" className="section-heading">
        Schedule
      </h2>
      <ol className="schedule-list">
        {scheduleRows(game).map((row) => {
          const ms = Date.parse(row.at);
          const isNext = nextMs !== null && ms === nextMs;
          const isPast = ms <= now.getTime();
          const cls = ['schedule-row', isNext ? 'is-next' : '', isPast ? 'is-past' : ''].filter(Boolean);
          return (
            <li key={row.key} className={cls.join(' ')}>
              <span className="schedule-dot" aria-hidden="true" />
              <span className="schedule-label">{row.label}</span>
              <time className="schedule-time" dateTime={row.at}>
                {formatWhen(row.at, 'EEE, MMM d, yyyy · h:mm a') ?? '–'}
              </time>
              {isNext && next && <Countdown target={next} />}
            </li>
          );
        })}
      </ol>
      <p className="note">Times are shown in your time zone ({viewerZoneName()}).</p>
    </section>
  );
}
