import type { RouteObject } from 'react-router';

/**
 * The host console's routes (hosting spec §2), under the app frame: /host, /host/:community,
 * /host/:community/:series, /host/:community/:series/:uuid.
 */
export const hostRoutes: RouteObject[] = [];
