import type { CommunityRank, Profile } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { fetchCommunityRank } from './account-api';
import { startingCommunity, useGameHistory } from './game-history';

const counts = new Intl.NumberFormat('en-US');
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const upToTwo = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * The rank in the chosen community as tiles: the label on top, the figure at the bottom, so the
 * figures of a row stay level when one label wraps to two lines.
 */
function RankFacts({ rank }: { rank: CommunityRank }) {
  if (rank.games === 0) return <p className="empty">No completed games in this community yet.</p>;
  return (
    <>
      <dl className="rank-facts">
        <div>
          <dt>Community rank</dt>
          <dd>
            {rank.r === null ? (
              '–'
            ) : (
              <>
                {counts.format(rank.r)} <span className="rank-of">of {counts.format(rank.players)}</span>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Total score</dt>
          <dd>{counts.format(rank.s)}</dd>
        </div>
        <div>
          <dt>Average score</dt>
          <dd>{upToTwo.format(rank.a)}</dd>
        </div>
        <div>
          <dt>Percentile</dt>
          {/* Spec §2: percentile to 2 decimals. */}
          <dd>{rank.p === null ? '–' : twoDecimals.format(rank.p)}</dd>
        </div>
      </dl>
      <p className="note">
        Across {counts.format(rank.games)} completed {rank.games === 1 ? 'game' : 'games'} in this community.
      </p>
    </>
  );
}

/** The community select of the profile page (query param c) and the rank in the chosen one. */
export function ProfileCommunityRank({ profile }: { profile: Profile }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const communities = Object.entries(profile.joined_communities);
  const wanted = params.get('c');
  // Without ?c=, the history (the page's own query, asked for once) chooses; a failed one does not.
  const history = useGameHistory(profile.username);
  const fallback = history.isPending
    ? null
    : startingCommunity(
        communities.map(([endpoint]) => endpoint),
        history.data?.pages.flatMap((p) => p.games) ?? [],
      );
  const selected = communities.find(([endpoint]) => endpoint === wanted)?.[0] ?? fallback;

  const rank = useQuery({
    queryKey: queryKeys.communityRank(selected ?? '', profile.username),
    queryFn: () => fetchCommunityRank(selected ?? '', profile.username),
    enabled: selected !== null,
  });

  if (communities.length === 0) {
    return (
      <section className="card profile-communities" aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`} className="section-heading">
          Communities
        </h2>
        <p className="empty">No communities joined.</p>
      </section>
    );
  }

  const choose = (endpoint: string) => {
    const next = new URLSearchParams(params);
    next.set('c', endpoint);
    setParams(next, { replace: true });
  };

  return (
    <section className="card profile-communities" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="section-heading">
        Communities
      </h2>
      <div className="field">
        <label htmlFor={`${id}-community`}>Community</label>
        <select id={`${id}-community`} value={selected ?? ''} onChange={(e) => choose(e.target.value)}>
          {communities.map(([endpoint, c]) => (
            <option key={endpoint} value={endpoint}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {rank.data && <RankFacts rank={rank.data} />}
    </section>
  );
}
