import type { Game, Participation, Profile } from '@hunch/contract';
import { callToAction } from '@hunch/rules';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { useMembership } from '../../api/use-membership';
import { loginLinkFor, questionsPath, resultsPath } from '../../shared/paths';
import { useSingleFlight } from '../../shared/single-flight';
import { useEnterGame } from './game-api';
import { firstUnanswered } from './question-flow';
import { SUBCOMMUNITY_SELECT_ID } from './subcommunity-select';

interface GameActionProps {
  game: Game;
  profile: Profile | null;
  participation: Participation | null;
  /** The subcommunity chosen in the select ('' for none). */
  subcommunity: string;
}

/** The game page's call-to-action button (spec §4), with exactly the rules' label and disabled state. */
export function GameAction({ game, profile, participation, subcommunity }: GameActionProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const membership = useMembership(game.community.endpoint);
  const enter = useEnterGame(game.uuid);
  const sendOnce = useSingleFlight();

  const hasSubcommunities = Object.keys(game.subcommunities).length > 0;
  const cta = callToAction({
    state: game.state,
    synchronous: game.synchronous,
    seriesName: game.series.name,
    loggedIn: profile !== null,
    isMember: profile !== null && game.community.endpoint in profile.joined_communities,
    communityName: game.community.name,
    hasAnswers: participation !== null && Object.keys(participation.answers).length > 0,
    hasSubcommunities,
    // An entry's team is settled, even as none (the player left the community they represented).
    subcommunityChosen: participation !== null || subcommunity !== '',
  });

  if (cta.kind === 'login') {
    return (
      <Link className="button button-primary button-block" to={loginLinkFor(location.pathname)}>
        {cta.label}
      </Link>
    );
  }

  const startEntry = async () => {
    let entry = participation;
    if (!entry) {
      if (hasSubcommunities) {
        const name = game.subcommunities[subcommunity] ?? subcommunity;
        if (!window.confirm(`Represent ${name} in ${game.name}?`)) return;
      }
      try {
        entry = await enter.mutateAsync(hasSubcommunities ? subcommunity : null);
      } catch {
        return; // A failed join returns false and nothing happens (spec §8).
      }
    }
    navigate(questionsPath(game, firstUnanswered(entry)));
  };

  // Joining the lobby enters the game, and the subcommunity is locked from then on.
  const openLobby = () => {
    if (!participation && hasSubcommunities) {
      const name = game.subcommunities[subcommunity] ?? subcommunity;
      if (!window.confirm(`Represent ${name} in ${game.name}?`)) return;
    }
    // In place of the page's entry, not a new one: once in, the page itself puts the player back at
    // #lobby (game-page.tsx), so a pushed entry made Back land on the page and return straight into
    // the lobby; a single Back now leaves the game, as from any page.
    navigate({ search: location.search, hash: 'lobby' }, { replace: true });
  };

  // The call-to-action stays disabled while a live game runs (spec §4), but a member who has not
  // entered may still join the question in progress (DESIGN §2): a second button says so. (One who
  // has entered is taken back into the game by the page itself.)
  const lateJoin =
    game.synchronous &&
    game.state === 'standby' &&
    participation === null &&
    profile !== null &&
    game.community.endpoint in profile.joined_communities &&
    (!hasSubcommunities || subcommunity !== '');

  const busy = membership.isPending || enter.isPending;
  const onClick = () => {
    if (busy) return;
    switch (cta.kind) {
      case 'join-community':
        sendOnce(() =>
          membership.mutateAsync(true).then(() => {
            // The next step is choosing a team: the button waits for it, so the focus goes there.
            if (hasSubcommunities && subcommunity === '')
              document.getElementById(SUBCOMMUNITY_SELECT_ID)?.focus();
          }),
        );
        return;
      case 'enter':
        sendOnce(startEntry);
        return;
      case 'lobby':
        openLobby();
        return;
      case 'results':
        navigate(resultsPath(game));
        return;
      default:
        return;
    }
  };

  const error = membership.error;
  // While a call runs the button is aria-disabled, not disabled: a disabled button drops the
  // keyboard focus, and after joining the same button goes on to 'Enter …'.
  return (
    <div className="game-action">
      <button
        type="button"
        className="button button-primary button-block"
        disabled={cta.disabled}
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        onClick={onClick}
      >
        {cta.label}
      </button>
      {lateJoin && (
        <button type="button" className="button button-secondary button-block" onClick={openLobby}>
          Join the game in progress
        </button>
      )}
      {error && (
        <p className="form-error" role="alert">
          {errorText(error)}
        </p>
      )}
    </div>
  );
}
