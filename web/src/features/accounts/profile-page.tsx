import type { Profile } from '@hunch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { userImageUrl } from '../../api/asset-urls';
import { errorText, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { startCacheOver } from '../../api/session-cache';
import { useProfile } from '../../api/use-profile';
import { useImageVersion } from '../../shared/image-version';
import { Loading } from '../../shared/loading';
import { loginLinkFor } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import { useSingleFlight } from '../../shared/single-flight';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useWindowHeight } from '../../shared/use-window-height';
import { fetchProfileOf, logOut } from './account-api';
import { ProfileCommunityRank } from './profile-community-rank';
import { ProfileEdit } from './profile-edit';
import { ProfileGameHistory } from './profile-game-history';

function ProfileNav() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sendOnce = useSingleFlight();
  const logout = useMutation({
    mutationFn: logOut,
    onSuccess: () => {
      startCacheOver(queryClient, null);
      navigate('/login', { replace: true });
    },
  });
  return (
    <header className="top-bar">
      <span className="brand" aria-hidden="true">
        Hunch
      </span>
      <nav aria-label="Profile" className="tabs">
        <button
          type="button"
          className="tab"
          onClick={() => sendOnce(() => logout.mutateAsync())}
          disabled={logout.isPending}
        >
          Log out
        </button>
      </nav>
      {logout.isError && (
        <p className="form-error top-bar-error" role="alert">
          {errorText(logout.error)}
        </p>
      )}
    </header>
  );
}

function ProfileView({ profile }: { profile: Profile }) {
  const [editing, setEditing] = useState(false);
  const imageVersion = useImageVersion();
  const hidden = profile.isPrivate && !profile.isOwner;
  const fullName = profile.name.join(' ').trim();
  // The server's name is the username split at underscores (or the username itself, for a private
  // profile): a second line that only repeats the username is left out.
  const plain = (text: string) => text.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  const displayName = plain(fullName) === plain(profile.username) ? '' : fullName;

  return (
    <>
      <section className="card profile-header">
        <SafeImg
          className="avatar avatar-large"
          src={userImageUrl(profile.profile_img, profile.isOwner ? imageVersion : undefined)}
          alt={`Avatar of ${profile.username}`}
        />
        <div className="profile-header-body">
          <h1 className="profile-username">{profile.username}</h1>
          {displayName && <p className="profile-name">{displayName}</p>}
          {profile.geo_group && <p className="profile-geo">Geo-group: {profile.geo_group}</p>}
          <p className={profile.isPrivate ? 'badge' : 'badge badge-joined'}>
            {profile.isPrivate ? 'Private profile' : 'Public profile'}
          </p>
        </div>
        {profile.isOwner && (
          <button
            type="button"
            className={editing ? 'button button-primary' : 'button button-secondary'}
            onClick={() => setEditing((e) => !e)}
          >
            {editing ? 'Confirm' : 'Edit Profile'}
          </button>
        )}
      </section>
      {profile.isOwner && editing && <ProfileEdit profile={profile} />}
      {hidden ? (
        <p className="note">This profile is private.</p>
      ) : (
        <>
          <ProfileCommunityRank profile={profile} />
          <ProfileGameHistory username={profile.username} isOwner={profile.isOwner} />
        </>
      )}
    </>
  );
}

/** Another user's profile (?u=); an unknown user goes back to the viewer's own profile (spec §2). */
function OtherProfile({ username }: { username: string }) {
  const other = useQuery({
    queryKey: queryKeys.otherProfile(username),
    queryFn: () => fetchProfileOf(username),
  });
  if (other.isPending) return <Loading label="Loading profile…" />;
  if (other.isError) {
    if (isApiError(other.error)) return <Navigate to="/profile" replace />;
    return (
      <p className="form-error" role="alert">
        {errorText(other.error)}
      </p>
    );
  }
  return <ProfileView profile={other.data} />;
}

/** /profile[?u=username][&c=community]: logged-out visitors go to /login (spec §2). */
export function ProfilePage() {
  const profile = useProfile();
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const height = useWindowHeight();
  const wanted = params.get('u');
  const isOwn = !wanted || wanted.toLowerCase() === profile?.username.toLowerCase();
  useDocumentTitle(isOwn ? 'Profile' : (wanted ?? 'Profile'));

  // Spec §2: to /login. A link to someone's profile (?u=, ?c=) comes back there after the login, as
  // the other login links do; the plain /profile needs no returnto (a login lands on one's own).
  if (profile === null)
    return <Navigate to={search ? loginLinkFor(`${pathname}${search}`) : '/login'} replace />;

  return (
    // Spec §2: the page is exactly the window's inner height; its content scrolls inside it.
    <div className="profile-page" style={{ height }}>
      <ProfileNav />
      <div className="page page-narrow profile-content">
        {profile === undefined ? (
          <Loading label="Loading profile…" />
        ) : isOwn ? (
          <ProfileView profile={profile} />
        ) : (
          <OtherProfile username={wanted} />
        )}
      </div>
    </div>
  );
}
