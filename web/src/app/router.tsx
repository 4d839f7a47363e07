import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '../features/accounts/login-page';
import { ProfilePage } from '../features/accounts/profile-page';
import { RegisterPage } from '../features/accounts/register-page';
import { CommunitiesShell } from '../features/communities/communities-shell';
import { CommunityPage } from '../features/communities/community-page';
import { CommunitySearchPage } from '../features/communities/community-search-page';
import { JoinedCommunitiesPage } from '../features/communities/joined-communities-page';
import { Layout } from './layout';
import { PlayPlaceholder } from './play-placeholder';
import { RequireLogin } from './require-login';

export const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/communities" replace /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      {
        path: 'communities',
        element: <CommunitiesShell />,
        children: [
          { index: true, element: <Navigate to="/communities/search" replace /> },
          { path: 'search', element: <CommunitySearchPage /> },
          { path: 'joined', element: <JoinedCommunitiesPage /> },
          { path: ':endpoint', element: <CommunityPage /> },
        ],
      },
      { path: 'profile', element: <ProfilePage /> },
      {
        // The play area is built separately; replace PlayPlaceholder with its routes. Logged-out
        // visitors are sent to /communities (spec §2, §6).
        path: 'play/*',
        element: (
          <RequireLogin redirectTo="/communities">
            <PlayPlaceholder />
          </RequireLogin>
        ),
      },
      { path: '*', element: <Navigate to="/communities" replace /> },
    ],
  },
]);
