import type { Game } from '@hunch/contract';
import { stateLabel } from '@hunch/rules';
import { Link } from 'react-router';
import { gameImageUrl } from '../api/asset-urls';
import { useProfile } from '../api/use-profile';
import { gamePath, loginLinkFor } from './paths';
import { SafeImg } from './safe-img';
import { formatWhen, scheduleLine } from './time-text';

interface GameCardProps {
  game: Game;
  /** Name the community too (play area lists mix communities; a community page does not). */
  showCommunity?: boolean;
}

/** The card's accessible name: every visible text in reading order, commas where the eye sees a break. */
function gameCardName(parts: readonly (string | null | undefined)[]): string {
  return parts.filter(Boolean).join(', ');
}

/**
 * One game as a card linking to its game page: image, names, list label and the relevant time. The
 * play area is for members (spec §2), so a logged-out visitor's card leads to /login first and
 * comes back to the game afterwards, instead of bouncing off /play.
 */
export function GameCard({ game, showCommunity = false }: GameCardProps) {
  const profile = useProfile();
  const label = stateLabel(game.state, game.synchronous);
  const when = scheduleLine(game);
  const whenText = formatWhen(when.at);
  // A game without a name of its own is called after its series: then the series is not repeated.
  const ownName = game.name !== game.series.name;
  const originParts = [ownName ? game.series.name : null, showCommunity ? game.community.name : null];
  const origin = originParts.filter(Boolean).join(' · ');
  const target = profile === null ? loginLinkFor(gamePath(game)) : gamePath(game);
  // The name holds the state and the time as well as the names, in the order they are shown, so
  // what a voice-control user reads on the card is part of it (WCAG 2.5.3).
  const name = gameCardName([game.name, origin, label, whenText ? `${when.text} ${whenText}` : null]);
  return (
    <li className="game-card">
      <Link className="game-card-link" to={target} aria-label={name}>
        <SafeImg
          className="game-card-image"
          src={gameImageUrl(game.image || game.series.image)}
          alt=""
          loading="lazy"
        />
        {/* The spaces between the parts are for text readers (axe among them): flex layout drops them. */}
        <span className="game-card-body">
          <span className="game-card-name">{game.name}</span>{' '}
          {origin && <span className="game-card-series">{origin}</span>}{' '}
          <span className="game-card-footer">
            {label && <span className={`state-badge state-${game.state}`}>{label}</span>}{' '}
            {whenText && (
              <span className="game-card-time">
                {when.text} <time dateTime={when.at}>{whenText}</time>
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}
