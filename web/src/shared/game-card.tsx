import type { Game } from '@hunch/contract';
import { stateLabel } from '@hunch/rules';
import { Link } from 'react-router';
import { gameImageUrl } from '../api/asset-urls';
import { gamePath } from './paths';
import { SafeImg } from './safe-img';
import { formatWhen, scheduleLine } from './time-text';

interface GameCardProps {
  game: Game;
  /** Name the community too (play area lists mix communities; a community page does not). */
  showCommunity?: boolean;
}

/** One game as a card linking to its game page: image, names, list label and the relevant time. */
export function GameCard({ game, showCommunity = false }: GameCardProps) {
  const label = stateLabel(game.state, game.synchronous);
  const when = scheduleLine(game);
  const whenText = formatWhen(when.at);
  // A game without a name of its own is called after its series: then the series is not repeated.
  const ownName = game.name !== game.series.name;
  const originParts = [ownName ? game.series.name : null, showCommunity ? game.community.name : null];
  const origin = originParts.filter(Boolean).join(' · ');
  return (
    <li className="game-card">
      <Link
        className="game-card-link"
        to={gamePath(game)}
        aria-label={origin ? `${game.name}, ${origin}` : game.name}
      >
        <SafeImg
          className="game-card-image"
          src={gameImageUrl(game.image || game.series.image)}
          alt=""
          loading="lazy"
        />
        <span className="game-card-body">
          <span className="game-card-name">{game.name}</span>
          {origin && <span className="game-card-series">{origin}</span>}
          <span className="game-card-footer">
            {label && <span className={`state-badge state-${game.state}`}>{label}</span>}
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
