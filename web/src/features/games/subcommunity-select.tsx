import type { Game } from '@hunch/contract';
import { takesEntries } from '@hunch/rules';
import { Link } from 'react-router';
import { communityPath } from '../../shared/paths';

/** The select's id: the game's call-to-action moves the focus to it when a team is still to be chosen. */
export const SUBCOMMUNITY_SELECT_ID = 'represent-community';

interface SubcommunitySelectProps {
  game: Game;
  joined: ReadonlySet<string>;
  /** The endpoint chosen (or locked in by an existing entry); '' for none yet. */
  value: string;
  /** Locked once the player has an entry (spec §5). */
  locked: boolean;
  onChange: (endpoint: string) => void;
}

/** 'Participating Communities:': who plays as a team, and which one the player represents. */
export function SubcommunitySelect({ game, joined, value, locked, onChange }: SubcommunitySelectProps) {
  const communities = Object.entries(game.subcommunities).sort(([, a], [, b]) => a.localeCompare(b));
  const canRepresent = communities.some(([endpoint]) => joined.has(endpoint));
  // An entry that represents none: its player left the community they had chosen (leaving erases
  // what they did there, their representing it too), and plays on for no team.
  const playsForNone = locked && value === '';
  // A team is chosen to enter. Once entries have closed, one who has not entered has none to
  // choose: the box and its "counts toward" were a false promise.
  const entering = takesEntries(game.state, game.synchronous);
  return (
    <section className="subcommunities" aria-labelledby="subcommunities-heading">
      <h2 id="subcommunities-heading" className="section-heading">
        Participating Communities:
      </h2>
      <ul className="chips">
        {communities.map(([endpoint, name]) => (
          <li key={endpoint}>
            <Link
              className={joined.has(endpoint) ? 'chip chip-link is-joined' : 'chip chip-link'}
              to={communityPath(endpoint)}
            >
              {joined.has(endpoint) && (
                <span className="chip-check" aria-hidden="true">
                  ✓
                </span>
              )}
              {name}
              {joined.has(endpoint) && <span className="visually-hidden"> (joined)</span>}
            </Link>
          </li>
        ))}
      </ul>
      {(locked || entering) && (
        <div className="field">
          <label htmlFor={SUBCOMMUNITY_SELECT_ID}>Represent community</label>
          <select
            id={SUBCOMMUNITY_SELECT_ID}
            required
            value={value}
            disabled={locked}
            aria-describedby="represent-hint"
            onChange={(e) => onChange(e.target.value)}
          >
            {/* Selected by hand: when every option is disabled (no team joined), the browser selects
              none, and the select's value ('') then matches nothing, so setting it changes nothing:
              the box showed blank. */}
            <option value="" disabled selected={value === ''}>
              {playsForNone ? 'No community' : 'Choose a community…'}
            </option>
            {communities.map(([endpoint, name]) => (
              <option key={endpoint} value={endpoint} disabled={!joined.has(endpoint)}>
                {joined.has(endpoint) ? name : `${name} (not joined)`}
              </option>
            ))}
          </select>
          <p id="represent-hint" className="field-hint">
            {playsForNone
              ? 'You play for no community in this game.'
              : locked
                ? 'Your team is locked in for this game.'
                : canRepresent
                  ? 'Your score counts toward this community. You cannot change it after entering.'
                  : 'Join one of these communities to represent it in this game.'}
          </p>
        </div>
      )}
    </section>
  );
}
