import { GamePage, type LiveSlot } from '../features/games/game-page';
import { LivePanel } from '../features/live/live-panel';

// One panel per game: a new game's page starts its own connection.
const livePanel: LiveSlot = (game, subcommunity) => (
  <LivePanel key={game.uuid} game={game} subcommunity={subcommunity} />
);

/** The game page with the live game in it: the two features meet here, not in each other. */
export function GameScreen() {
  return <GamePage liveSlot={livePanel} />;
}
