import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useProfile } from '../api/use-profile';
import { Loading } from '../shared/loading';

/**
 * Where a logged-out visitor of the play area goes: the communities (spec §2, §6), and for a link to
 * one community's series or game (a shared game) that community's page, whose 'Log in to join'
 * keeps them on their way rather than dropping them on the search.
 */
export function loggedOutTarget(pathname: string): string {
  const [, area, community, series] = pathname.split('/');
  return area === 'play' && community && series ? `/communities/${community}` : '/communities';
}

/** Renders children for a logged-in user; waits while the profile loads, else redirects. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const profile = useProfile();
  const { pathname } = useLocation();
  if (profile === undefined) return <Loading />;
  if (profile === null) return <Navigate to={loggedOutTarget(pathname)} replace />;
  return children;
}
