import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';

/** A console screen as its own chunk, loaded when its route first matches (as in router.tsx). */
function hostScreen<M>(load: () => Promise<M>, render: (module: M) => ReactNode): RouteObject['lazy'] {
  return async () => ({ element: render(await load()) });
}

/**
 * The host console's routes (hosting spec §2), under the app frame: /host, /host/:community,
 * /host/:community/:series, /host/:community/:series/:uuid (`new` for a game not saved yet).
 * HostShell sends signed-out users and players who host nothing to /communities.
 */
export const hostRoutes: RouteObject[] = [
  {
    path: 'host',
    lazy: hostScreen(
      () => import('../features/hosting/host-shell'),
      (m) => <m.HostShell />,
    ),
    children: [
      {
        index: true,
        lazy: hostScreen(
          () => import('../features/hosting/host-home-page'),
          (m) => <m.HostHomePage />,
        ),
      },
      {
        path: ':community',
        lazy: hostScreen(
          () => import('../features/hosting/community-console-page'),
          (m) => <m.CommunityConsolePage />,
        ),
      },
      {
        path: ':community/:series',
        lazy: hostScreen(
          () => import('../features/hosting/series-console-page'),
          (m) => <m.SeriesConsolePage />,
        ),
      },
      {
        path: ':community/:series/:uuid',
        lazy: hostScreen(
          () => import('../features/hosting/game-editor-page'),
          (m) => <m.GameEditorPage />,
        ),
      },
      { path: '*', element: <Navigate to="/host" replace /> },
    ],
  },
];
