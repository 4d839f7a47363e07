import type { Game } from '@hunch/contract';
import { useEffect, useRef } from 'react';
import { formatWhen } from './time-text';

interface LiveLobbySlotProps {
  game: Game;
  /** The subcommunity the player represents, for the live game's connection; null when none. */
  subcommunity: string | null;
}

/**
 * Where the live (synchronous) game will appear once the player joins the lobby (#lobby). The live
 * game is built separately; until then this panel only says when it starts.
 */
export function LiveLobbySlot({ game, subcommunity: _subcommunity }: LiveLobbySlotProps) {
  const starts = formatWhen(game.schedule.standby, 'EEEE, MMM d, h:mm a');
  const heading = useRef<HTMLHeadingElement>(null);
  // Joining moves the player here: bring the panel into view and let screen readers read it.
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="card lobby-panel" id="lobby" aria-labelledby="lobby-heading" aria-live="polite">
      <h2 id="lobby-heading" ref={heading} tabIndex={-1} className="section-heading">
        Lobby
      </h2>
      <p className="lobby-text">
        You are in the lobby. The live game will start at{' '}
        <time dateTime={game.schedule.standby}>{starts ?? 'the scheduled time'}</time>.
      </p>
      <p className="note">Keep this page open: questions appear here when the game begins.</p>
    </section>
  );
}
