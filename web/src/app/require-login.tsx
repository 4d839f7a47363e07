import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useProfile } from '../api/use-profile';
import { Loading } from '../shared/loading';

/** Renders children for a logged-in user; waits while the profile loads, else redirects. */
export function RequireLogin({ redirectTo, children }: { redirectTo: string; children: ReactNode }) {
  const profile = useProfile();
  if (profile === undefined) return <Loading />;
  if (profile === null) return <Navigate to={redirectTo} replace />;
  return children;
}
