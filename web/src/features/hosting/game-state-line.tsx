import type { GameState } from '@hunch/contract';
import { formatWhen } from '../../shared/time-text';
import { HOST_STATE_TEXT, stateTime } from './host-text';

/** A game's state in words and the one time that matters for it: 'Open · closes Fri, Nov 27, 8:27 PM'. */
export function GameStateLine({
  state,
  schedule,
  pending,
  live,
}: {
  state: GameState;
  schedule: { open: string; standby: string; complete: string };
  /** Outcomes still to enter. */
  pending?: number;
  live?: boolean;
}) {
  const { text, at } = stateTime(state, schedule, { pending, live });
  return (
    <>
      <span className="host-state">{HOST_STATE_TEXT[state]}</span>{' '}
      <span className="note">
        {text}
        {at && (
          <>
            {' '}
            <time dateTime={at}>{formatWhen(at)}</time>
          </>
        )}
      </span>
    </>
  );
}
