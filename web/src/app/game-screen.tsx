import { lazy, Suspense } from 'react';
import { GamePage, type LiveSlot } from '../features/games/game-page';
import { Loading } from '../shared/loading';

// The live game (its screens, state and its own socket.io connection) is loaded only when a page
// shows it (#lobby): most game pages are not live, and their first screen does not carry it.
const loadLivePanel = () => import('../features/live/live-panel');
const LivePanel = lazy(async () => ({ default: (await loadLivePanel()).LivePanel }));

/** In the panel's place while its chunk loads: the same card, so nothing below it moves twice. */
function LivePlaceholder() {
  return (
    <section className="card live-panel is-waiting" aria-label="Live game">
      <div className="live-body">
        <Loading label="Connecting to the live game…" />
      </div>
    </section>
  );
}

// One panel per game: a new game's page starts its own connection.
const livePanel: LiveSlot = (game, subcommunity) => (
  <Suspense key={game.uuid} fallback={<LivePlaceholder />}>
    <LivePanel game={game} subcommunity={subcommunity} />
  </Suspense>
);

/**
 * The game page with the live game in it: the two features meet here, not in each other. A live
 * game's page (synchronous, not over) starts fetching the panel at once, so it is there by the time
 * the player's entry says the page opens at the lobby.
 */
export function GameScreen() {
  return <GamePage liveSlot={livePanel} prepareLive={loadLivePanel} />;
}
