import { Navigate, useParams } from 'react-router';
import { communityImageUrl } from '../../api/asset-urls';
import { errorText, isApiError } from '../../api/client';
import { Chip } from '../../shared/chip';
import { GameLists } from '../../shared/game-lists';
import { Loading } from '../../shared/loading';
import { SafeImg } from '../../shared/safe-img';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useCommunity } from './community-api';
import { memberCount } from './community-text';
import { MembershipButton } from './membership-button';

/** /communities/{endpoint}: header, membership and the community's games (spec §2). */
export function CommunityPage() {
  const { endpoint = '' } = useParams();
  const community = useCommunity(endpoint);
  useDocumentTitle(community.data?.name ?? 'Community');

  if (community.isPending) return <Loading label="Loading community…" />;
  if (community.isError) {
    // Unknown (404) or malformed (400) endpoints go back to the communities (spec §2, §8).
    if (isApiError(community.error, 404) || isApiError(community.error, 400)) {
      return <Navigate to="/communities" replace />;
    }
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(community.error)}
        </p>
      </section>
    );
  }

  const c = community.data;
  return (
    <article className="page community-page">
      <header className="card community-header">
        <SafeImg className="community-hero" src={communityImageUrl(c.image)} alt="" />
        <div className="community-header-body">
          <h1 className="community-name">{c.name}</h1>
          <p className="community-endpoint">/{c.endpoint}</p>
          {c.categories.length > 0 && (
            <ul className="chips" aria-label="Categories">
              {c.categories.map((category) => (
                <li key={category}>
                  <Chip>{category}</Chip>
                </li>
              ))}
            </ul>
          )}
          <dl className="community-facts">
            <div>
              <dt className="visually-hidden">Membership</dt>
              <dd className={c.joined ? 'badge badge-joined' : 'badge'}>
                {c.joined ? 'Joined' : 'Not joined'}
              </dd>
            </div>
            <div>
              <dt>Members</dt>
              <dd>{memberCount(c.members)}</dd>
            </div>
          </dl>
          {c.description && <p className="community-description">{c.description}</p>}
          <MembershipButton endpoint={c.endpoint} name={c.name} joined={c.joined} />
        </div>
      </header>
      <GameLists games={c.game_list} />
    </article>
  );
}
