import { type Game, httpRoutes, routeUrl } from '@hunch/contract';
import { useParticipation } from '../../api/game-queries';
import { useProfile } from '../../api/use-profile';
import { ShareLinkButton } from '../../shared/share-link-button';

/**
 * 'Share my result' on the results: a link whose preview shows the player's score and rank (a
 * private player's link shows only the game: the server keeps private results to their owner).
 * A visitor, or a player without a score in this game, shares the game.
 */
export function ShareResult({ game }: { game: Game }) {
  const profile = useProfile();
  const participation = useParticipation(game.uuid, Boolean(profile));
  const scored = profile && participation.data?.entry.score != null;
  const path = scored
    ? routeUrl(httpRoutes.shareResult, { uuid: game.uuid, username: profile.username })
    : routeUrl(httpRoutes.shareGame, { uuid: game.uuid });
  return (
    <ShareLinkButton
      url={window.location.origin + path}
      title={game.name}
      text={scored ? `My result in ${game.name} on Hunch. Can you beat it?` : `${game.name} on Hunch`}
      label={scored ? 'Share my result' : 'Share'}
    />
  );
}
