import { type Game, httpRoutes, routeUrl } from '@hunch/contract';
import { ShareButton } from './share-button';

/** A calendar page (drawn, so no emoji font is needed). Decorative: the link says what it does. */
function CalendarIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="5" width="18" height="16" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M3 10h18M8 3v4M16 3v4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * A game's ways out of the app: 'Add to calendar' (an .ics file of the game, until its results are
 * due), a subscription to every game of its community (a webcal:// feed a calendar app keeps
 * up to date) and 'Share'.
 */
export function AddToCalendar({ game }: { game: Game }) {
  const file = routeUrl(httpRoutes.calendarGame, { uuid: game.uuid });
  const feed = `webcal://${window.location.host}${routeUrl(httpRoutes.calendarCommunity, { community: game.community.endpoint })}`;
  return (
    <section className="card game-links" aria-labelledby="game-links-heading">
      <h2 id="game-links-heading" className="section-heading">
        Calendar and sharing
      </h2>
      <div className="game-links-row">
        {/* Once results are due (complete passed), the whole event lies in the past. */}
        {game.state !== 'results' && game.state !== 'complete' && (
          <a className="button button-secondary" href={file} download>
            <CalendarIcon /> Add to calendar
          </a>
        )}
        <ShareButton game={game} />
      </div>
      <p className="note">
        {/* Not '…'s games': a name ending in s ('Chart Toppers') would read wrong. */}
        <a href={feed}>Subscribe to the games of {game.community.name}</a> in your calendar app: new games
        appear by themselves.
      </p>
    </section>
  );
}
