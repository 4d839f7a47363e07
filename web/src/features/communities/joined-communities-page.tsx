import { Link, Navigate } from 'react-router';
import { errorText } from '../../api/client';
import { useProfile } from '../../api/use-profile';
import { Loading } from '../../shared/loading';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useJoinedCommunities } from './community-api';
import { CommunityCard } from './community-card';

/** /communities/joined: the user's communities; visitors are sent to the search (spec §2). */
export function JoinedCommunitiesPage() {
  useDocumentTitle('Your Communities');
  const profile = useProfile();
  const joined = useJoinedCommunities(Boolean(profile));

  if (profile === null) return <Navigate to="/communities/search" replace />;
  if (profile === undefined || joined.isPending) return <Loading label="Loading your communities…" />;

  return (
    <section className="page">
      <h1 className="list-heading">Communities you have joined</h1>
      {joined.isError && (
        <p className="form-error" role="alert">
          {errorText(joined.error)}
        </p>
      )}
      <ul className="card-grid">
        {(joined.data ?? []).map((c) => (
          <CommunityCard key={c.endpoint} endpoint={c.endpoint} name={c.name} image={c.img} />
        ))}
        <li className="community-card join-card">
          <Link to="/communities/search" className="community-card-link join-card-link">
            <span className="join-card-plus" aria-hidden="true">
              +
            </span>
            <span className="community-card-name">Join new communities!</span>
          </Link>
        </li>
      </ul>
      <p className="note">
        Want to host a community of your own? E-mail{' '}
        <a href="mailto:hosting@hunch.example">hosting@hunch.example</a> and tell us about it.
      </p>
    </section>
  );
}
