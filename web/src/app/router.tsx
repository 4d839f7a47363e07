import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { PlayShell } from '../features/games/play-shell';
import { Loading } from '../shared/loading';
import { hostRoutes } from './host-routes';
import { Layout } from './layout';
import { RequireLogin } from './require-login';
import { RouteError } from './route-error';

/**
 * Each screen is its own chunk, loaded when a route first matches (decision 023): the first screen
 * carries the frame (React, the router, the query cache, the footer) and the modules of the routes
 * it shows, not the whole app. The router loads the chunks of every level a URL matches at once, so
 * a shell and its page arrive together, not one after the other. Only app/ imports features, so
 * these imports are the one place screens are split.
 */
function screen<M>(load: () => Promise<M>, render: (module: M) => ReactNode): RouteObject['lazy'] {
  return async () => ({ element: render(await load()) });
}

const communitiesShell = () => import('../features/communities/communities-shell');
const playListPage = () => import('../features/games/play-list-page');
const resultsShell = () => import('../features/results/results-shell');

// The charts (recharts) are big and only the breakdown needs them: loaded on first visit, with a
// placeholder meanwhile (the results tabs stay up).
const QuestionBreakdown = lazy(async () => ({
  default: (await import('../features/results/question-breakdown')).QuestionBreakdown,
}));

/** The pages a logged-out visitor may not see: the check runs before the page's chunk is needed. */
const loggedIn = (
  <RequireLogin>
    <Outlet />
  </RequireLogin>
);

export const router = createBrowserRouter([
  {
    // The question flow hides the navigation bar (spec §2), so it sits outside the app frame.
    path: '/play/:community/:series/:uuid/questions',
    element: loggedIn,
    hydrateFallbackElement: <Loading />,
    errorElement: <RouteError />,
    children: [
      {
        index: true,
        lazy: screen(
          () => import('../features/games/questions-page'),
          (m) => <m.QuestionsPage />,
        ),
      },
    ],
  },
  {
    path: '/',
    element: <Layout />,
    // Shown while the first screen's chunks load (the frame is in the entry).
    hydrateFallbackElement: <Loading />,
    errorElement: <RouteError />,
    children: [
      {
        // A screen that fails to load or throws shows its error inside the frame: the navigation
        // stays, so the player has a way on.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/communities" replace /> },
          {
            path: 'login',
            lazy: screen(
              () => import('../features/accounts/login-page'),
              (m) => <m.LoginPage />,
            ),
          },
          {
            path: 'register',
            lazy: screen(
              () => import('../features/accounts/register-page'),
              (m) => <m.RegisterPage />,
            ),
          },
          {
            path: 'communities',
            lazy: screen(communitiesShell, (m) => <m.CommunitiesShell />),
            children: [
              { index: true, element: <Navigate to="/communities/search" replace /> },
              {
                path: 'search',
                lazy: screen(
                  () => import('../features/communities/community-search-page'),
                  (m) => <m.CommunitySearchPage />,
                ),
              },
              {
                path: 'joined',
                lazy: screen(
                  () => import('../features/communities/joined-communities-page'),
                  (m) => <m.JoinedCommunitiesPage />,
                ),
              },
              {
                path: ':endpoint',
                lazy: screen(
                  () => import('../features/communities/community-page'),
                  (m) => <m.CommunityPage />,
                ),
              },
            ],
          },
          {
            path: 'profile',
            lazy: screen(
              () => import('../features/accounts/profile-page'),
              (m) => <m.ProfilePage />,
            ),
          },
          {
            // Open to everyone, like the community pages: how points are given (issue 27).
            path: 'scoring',
            lazy: screen(
              () => import('../features/games/scoring-page'),
              (m) => <m.ScoringPage />,
            ),
          },
          ...hostRoutes,
          {
            // Logged-out visitors are sent to /communities (spec §2, §6).
            path: 'play',
            element: loggedIn,
            children: [
              {
                // The play area's tabs: a few lines, in the frame, not a chunk (and a request) of their own.
                element: <PlayShell />,
                children: [
                  { index: true, element: <Navigate to="/play/current" replace /> },
                  { path: 'current', lazy: screen(playListPage, (m) => <m.PlayListPage status="ongoing" />) },
                  {
                    path: 'upcoming',
                    lazy: screen(playListPage, (m) => <m.PlayListPage status="upcoming" />),
                  },
                  { path: 'recent', lazy: screen(playListPage, (m) => <m.PlayListPage status="recent" />) },
                  {
                    path: ':community/:series',
                    lazy: screen(
                      () => import('../features/games/series-page'),
                      (m) => <m.SeriesPage />,
                    ),
                  },
                  {
                    path: ':community/:series/:uuid',
                    lazy: screen(
                      () => import('./game-screen'),
                      (m) => <m.GameScreen />,
                    ),
                  },
                  {
                    path: ':community/:series/:uuid/results',
                    lazy: screen(resultsShell, (m) => <m.ResultsShell />),
                    children: [
                      { index: true, lazy: screen(resultsShell, (m) => <m.ToLeaderboard />) },
                      {
                        path: 'leaderboard',
                        lazy: screen(
                          () => import('../features/results/player-leaderboard'),
                          (m) => <m.PlayerLeaderboard />,
                        ),
                      },
                      {
                        path: 'communityLeaderboard',
                        lazy: screen(
                          () => import('../features/results/community-leaderboard'),
                          (m) => <m.CommunityLeaderboardRoute />,
                        ),
                      },
                      {
                        path: 'breakdown',
                        element: (
                          <Suspense fallback={<Loading label="Loading statistics…" />}>
                            <QuestionBreakdown />
                          </Suspense>
                        ),
                      },
                      { path: '*', lazy: screen(resultsShell, (m) => <m.ToLeaderboard />) },
                    ],
                  },
                  { path: '*', element: <Navigate to="/play/current" replace /> },
                ],
              },
            ],
          },
          { path: '*', element: <Navigate to="/communities" replace /> },
        ],
      },
    ],
  },
]);
