import { type RouteAccess, USERNAME_MAX, USERNAME_MIN, usernameSchema } from '@hunch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from './db/database';
import { HttpError } from './http/http-error';

/**
 * Who may call: registerRoute applies these from a route's `access`, before parsing its input.
 * Roles (hosting spec §1): an admin is an account whose username is listed in ADMIN_USERS (read at
 * start, checked on every call, so one registered later is an admin too); a host of a community is
 * an account an admin granted it (`community_hosts`).
 */
export function requireUser(request: FastifyRequest): number {
  if (request.userId == null) throw new HttpError(401, 'Please log in first');
  return request.userId;
}

export const roleMessages = {
  notHost: 'Only hosts and admins may use hosting',
  notHostOf: 'You do not host this community',
  notAdmin: 'Only an admin may do this',
} as const;

/** The role lookups, one per app, installed by installRoles. */
export class Roles {
  private readonly admins: ReadonlySet<string>;

  constructor(
    private readonly db: Queryable,
    adminUsers: readonly string[],
  ) {
    this.admins = new Set(adminUsers.map((u) => u.toLowerCase()));
  }

  async isAdmin(userId: number): Promise<boolean> {
    if (this.admins.size === 0) return false;
    const { rows } = await this.db.query<{ username_key: string }>(
      'SELECT username_key FROM users WHERE id = $1',
      [userId],
    );
    return rows[0] !== undefined && this.admins.has(rows[0].username_key);
  }

  /** Hosts this community (by endpoint), or any community when none is named. */
  async isHost(userId: number, community?: string): Promise<boolean> {
    // The guard runs before the route's parameters are checked: a name no community can have
    // (NUL, which PostgreSQL text refuses, or an endless one) is hosted by nobody.
    if (community !== undefined && (community.length > 200 || community.includes('\u0000'))) return false;
    const { rows } =
      community === undefined
        ? await this.db.query('SELECT 1 FROM community_hosts WHERE user_id = $1 LIMIT 1', [userId])
        : await this.db.query(
            `SELECT 1 FROM community_hosts h JOIN communities c ON c.id = h.community_id
              WHERE h.user_id = $1 AND c.endpoint = $2`,
            [userId, community],
          );
    return rows.length > 0;
  }

  /** Listed names no account has yet: whoever registers one first becomes admin. */
  async unclaimedAdmins(): Promise<string[]> {
    if (this.admins.size === 0) return [];
    const { rows } = await this.db.query<{ username_key: string }>(
      'SELECT username_key FROM users WHERE username_key = ANY($1::text[])',
      [[...this.admins]],
    );
    const claimed = new Set(rows.map((r) => r.username_key));
    return [...this.admins].filter((name) => !claimed.has(name));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    roles: Roles;
  }
}

/** Makes the roles known to every route, and warns at start about admin names nobody holds. */
export function installRoles(app: FastifyInstance, db: Queryable, adminUsers: readonly string[]): void {
  app.decorate('roles', new Roles(db, adminUsers));
  app.addHook('onReady', async () => {
    for (const name of await app.roles.unclaimedAdmins()) {
      // A name sign-up refuses (too short, a space) can never be claimed: the site would have no admin.
      app.log.warn(
        usernameSchema.safeParse(name).success
          ? `ADMIN_USERS lists ${name}, which has no account yet: whoever registers ${name} first becomes admin`
          : `ADMIN_USERS lists ${name}, which no account can have (a username is ${USERNAME_MIN}-${USERNAME_MAX} letters, digits or underscores): nobody is admin by that name`,
      );
    }
  });
}

function rolesOf(request: FastifyRequest): Roles {
  const roles = (request.server as Partial<FastifyInstance>).roles;
  if (!roles) throw new Error('Host and admin routes need installRoles(app, …) before they are called');
  return roles;
}

export async function requireAdmin(request: FastifyRequest): Promise<number> {
  const userId = requireUser(request);
  if (!(await rolesOf(request).isAdmin(userId))) throw new HttpError(403, roleMessages.notAdmin);
  return userId;
}

/**
 * An admin, or a host: of `community` when it is named, else of any community. A community that
 * does not exist has no hosts, so only an admin gets past this to learn it is missing.
 */
export async function requireHost(request: FastifyRequest, community?: string): Promise<number> {
  const userId = requireUser(request);
  const roles = rolesOf(request);
  if (await roles.isAdmin(userId)) return userId;
  if (await roles.isHost(userId, community)) return userId;
  const hostsAny = community !== undefined && (await roles.isHost(userId));
  throw new HttpError(403, hostsAny ? roleMessages.notHostOf : roleMessages.notHost);
}

/**
 * The guard of a route's `access`: the caller's user id (null for a visitor on a public route).
 * A host route with a `:community` parameter is for that community's hosts only.
 */
export async function guardAccess(access: RouteAccess, request: FastifyRequest): Promise<number | null> {
  switch (access) {
    case 'public':
      return request.userId;
    case 'user':
      return requireUser(request);
    case 'admin':
      return requireAdmin(request);
    case 'host': {
      const community = (request.params as Record<string, unknown> | undefined)?.community;
      return requireHost(request, typeof community === 'string' ? community : undefined);
    }
  }
}
