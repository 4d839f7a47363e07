import { type Game, httpRoutes, routeUrl } from '@hunch/contract';
import { ShareLinkButton } from '../../shared/share-link-button';

/** 'Share' on a game page: its share link shows the game's picture and state in a chat's preview. */
export function ShareButton({ game }: { game: Game }) {
  const url = window.location.origin + routeUrl(httpRoutes.shareGame, { uuid: game.uuid });
  return (
    <ShareLinkButton
      url={url}
      title={game.name}
      text={`${game.name} on Hunch: vote, guess the crowd, predict the numbers.`}
      label="Share"
    />
  );
}
