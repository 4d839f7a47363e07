import type { Game } from '@hunch/contract';
import { stateLabel } from '@hunch/rules';
import { Link } from 'react-router';
import { gameImageUrl } from '../../api/asset-urls';
import { groupDigits } from '../../shared/number-text';
import { communityPath, seriesPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';

const STATE_TEXT: Record<Game['state'], string> = {
  closed: 'Not open yet',
  open: 'Open',
  standby: 'Closed',
  results: 'Scoring',
  complete: 'Results available',
};

/** Image, names and the live state of a game; the state is announced when it changes. */
export function GameHeader({ game }: { game: Game }) {
  const label = stateLabel(game.state, game.synchronous) ?? STATE_TEXT[game.state];
  return (
    <header className="card game-header">
      <SafeImg className="game-hero" src={gameImageUrl(game.image || game.series.image)} alt="" />
      <div className="game-header-body">
        <p className="eyebrow">
          <Link to={seriesPath(game.community.endpoint, game.series.endpoint)}>{game.series.name}</Link>
          {' · '}
          <Link to={communityPath(game.community.endpoint)}>{game.community.name}</Link>
        </p>
        <h1 className="game-name">{game.name}</h1>
        <p className="game-facts">
          <span className={`state-badge state-${game.state}`} aria-live="polite">
            {label}
          </span>
          <span>{game.synchronous ? 'Live game' : 'Play at your own pace'}</span>
          <span>
            {game.question_count} {game.question_count === 1 ? 'question' : 'questions'}
          </span>
          <span>
            {groupDigits(game.participants)} {game.participants === 1 ? 'player' : 'players'}
          </span>
        </p>
      </div>
    </header>
  );
}
