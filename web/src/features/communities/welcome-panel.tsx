import type { Profile } from '@hunch/contract';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { communityImageUrl } from '../../api/asset-urls';
import { useProfile } from '../../api/use-profile';
import { communityPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import { ScoringLink } from '../../shared/scoring-link';
import { endWelcome, isWelcomePending } from '../../shared/welcome-flag';
import { useCommunitySearch } from './community-api';
import { memberCount } from './community-text';
import { MembershipButton } from './membership-button';

const SUGGESTIONS = 3;

/** The endpoint of the geo-group registration placed the player in (it is among their communities). */
function geoGroupEndpoint(profile: Profile): string | null {
  const found = Object.entries(profile.joined_communities).find(([, c]) => c.name === profile.geo_group);
  return found?.[0] ?? null;
}

/**
 * Popular communities the player has not joined, chosen once: a card must not vanish under the
 * player's hand when they join it (the button turns to Leave, and keeps the focus).
 */
function useSuggestions(profile: Profile) {
  const search = useCommunitySearch(null);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const communities = search.data?.communities ?? [];
  if (chosen === null && search.data) {
    const picks = communities
      .filter((c) => !(c.endpoint in profile.joined_communities))
      .slice(0, SUGGESTIONS)
      .map((c) => c.endpoint);
    setChosen(picks);
  }
  return (chosen ?? []).flatMap((endpoint) => communities.filter((c) => c.endpoint === endpoint));
}

function Welcome({ profile, onDismiss }: { profile: Profile; onDismiss: () => void }) {
  const suggestions = useSuggestions(profile);
  const geo = profile.geo_group;
  const geoEndpoint = geoGroupEndpoint(profile);
  return (
    <section className="card welcome" aria-labelledby="welcome-title">
      <div className="welcome-head">
        {/* The welcome comes before the page's own heading: a new player arriving is put here. */}
        <h2 id="welcome-title" className="welcome-title" data-focus-on-arrival="">
          Welcome to Hunch, {profile.username}!
        </h2>
        <button type="button" className="welcome-close" onClick={onDismiss} aria-label="Close the welcome">
          <span aria-hidden="true">✕</span>
        </button>
      </div>
      {geo && geoEndpoint && (
        <p className="welcome-geo">
          Your zipcode placed you in your local geo-group, <Link to={communityPath(geoEndpoint)}>{geo}</Link>:
          you are already a member, and its games are under Play.
        </p>
      )}
      {geo && !geoEndpoint && (
        <p className="welcome-geo">
          Your zipcode placed you in your local geo-group, <strong>{geo}</strong>, which you have since left.
        </p>
      )}
      {suggestions.length > 0 && (
        <>
          <h3 className="welcome-subtitle">Communities to join</h3>
          <ul className="welcome-suggestions">
            {suggestions.map((c) => (
              <li key={c.endpoint} className="welcome-suggestion">
                <SafeImg className="welcome-suggestion-image" src={communityImageUrl(c.image)} alt="" />
                <div className="welcome-suggestion-body">
                  <Link className="welcome-suggestion-name" to={communityPath(c.endpoint)}>
                    {c.name}
                  </Link>
                  <span className="note">{memberCount(c.members)} members</span>
                  <MembershipButton
                    endpoint={c.endpoint}
                    name={c.name}
                    joined={c.endpoint in profile.joined_communities}
                  />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="note">
        Each game is a few questions: vote, guess what most people pick, or predict a number. <ScoringLink />
      </p>
      <button type="button" className="button button-secondary welcome-done" onClick={onDismiss}>
        Got it
      </button>
    </section>
  );
}

/** Where the welcome shows: the lists a new player lands on, not a community's own page. */
const WELCOME_PAGES = new Set(['/communities/search', '/communities/joined']);

/**
 * After sign-up (spec §4: registration goes to /communities), a welcome that names the geo-group the
 * player was placed in and suggests communities to join, until they dismiss it.
 */
export function WelcomePanel() {
  const profile = useProfile();
  const { pathname } = useLocation();
  const [dismissed, setDismissed] = useState(false);
  if (!profile || dismissed || !WELCOME_PAGES.has(pathname) || !isWelcomePending(profile.username)) {
    return null;
  }
  const dismiss = () => {
    endWelcome(profile.username);
    setDismissed(true);
    // The panel goes away under the focus: the page itself takes it.
    document.getElementById('main')?.focus({ preventScroll: true });
  };
  return (
    <div className="page welcome-page">
      <Welcome profile={profile} onDismiss={dismiss} />
    </div>
  );
}
