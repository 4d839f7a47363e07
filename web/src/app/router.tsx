import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '../features/accounts/login-page';
import { ProfilePage } from '../features/accounts/profile-page';
import { RegisterPage } from '../features/accounts/register-page';
import { CommunitiesShell } from '../features/communities/communities-shell';
import { CommunityPage } from '../features/communities/community-page';
import { CommunitySearchPage } from '../features/communities/community-search-page';
import { JoinedCommunitiesPage } from '../features/communities/joined-communities-page';
import { PlayListPage } from '../features/games/play-list-page';
import { PlayShell } from '../features/games/play-shell';
import { QuestionsPage } from '../features/games/questions-page';
import { SeriesPage } from '../features/games/series-page';
import { CommunityLeaderboardRoute } from '../features/results/community-leaderboard';
import { PlayerLeaderboard } from '../features/results/player-leaderboard';
import { ResultsShell, ToLeaderboard } from '../features/results/results-shell';
import { Loading } from '../shared/loading';
import { GameScreen } from './game-screen';
import { hostRoutes } from './host-routes';
import { Layout } from './layout';
import { RequireLogin } from './require-login';

// The charts (recharts) are big and only the breakdown needs them: loaded on first visit.
const QuestionBreakdown = lazy(async () => ({
  default: (await import('../features/results/question-breakdown')).QuestionBreakdown,
}));

export const router = createBrowserRouter([
  {
    // The question flow hides the navigation bar (spec §2), so it sits outside the app frame.
    path: '/play/:community/:series/:uuid/questions',
    element: (
      <RequireLogin redirectTo="/communities">
        <QuestionsPage />
      </RequireLogin>
    ),
  },
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
      ...hostRoutes,
      {
        // Logged-out visitors are sent to /communities (spec §2, §6).
        path: 'play',
        element: (
          <RequireLogin redirectTo="/communities">
            <PlayShell />
          </RequireLogin>
        ),
        children: [
          { index: true, element: <Navigate to="/play/current" replace /> },
          { path: 'current', element: <PlayListPage status="ongoing" /> },
          { path: 'upcoming', element: <PlayListPage status="upcoming" /> },
          { path: 'recent', element: <PlayListPage status="recent" /> },
          { path: ':community/:series', element: <SeriesPage /> },
          { path: ':community/:series/:uuid', element: <GameScreen /> },
          {
            path: ':community/:series/:uuid/results',
            element: <ResultsShell />,
            children: [
              { index: true, element: <ToLeaderboard /> },
              { path: 'leaderboard', element: <PlayerLeaderboard /> },
              { path: 'communityLeaderboard', element: <CommunityLeaderboardRoute /> },
              {
                path: 'breakdown',
                element: (
                  <Suspense fallback={<Loading label="Loading statistics…" />}>
                    <QuestionBreakdown />
                  </Suspense>
                ),
              },
              { path: '*', element: <ToLeaderboard /> },
            ],
          },
          { path: '*', element: <Navigate to="/play/current" replace /> },
        ],
      },
      { path: '*', element: <Navigate to="/communities" replace /> },
    ],
  },
]);
