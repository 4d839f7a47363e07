import type { Profile } from '@hunch/contract';
import type { Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import { userImageName } from '../platform/images';
import { joinedList } from './community-queries';

interface UserRow {
  id: number;
  username: string;
  profile_img: string | null;
  is_private: boolean;
  geo_name: string | null;
}

export async function findUserIdByUsername(db: Queryable, username: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE username_key = lower($1)', [
    username,
  ]);
  return rows[0]?.id;
}

/**
 * A profile as `viewerId` may see it. A private profile shows others its username and image only
 * (DESIGN §2); its owner always sees everything.
 */
export async function presentProfile(
  db: Queryable,
  userId: number,
  viewerId: number | null,
): Promise<Profile | undefined> {
  const { rows } = await db.query<UserRow>(
    `SELECT u.id, u.username, u.profile_img, u.is_private, g.name AS geo_name
       FROM users u LEFT JOIN communities g ON g.id = u.geo_community_id
      WHERE u.id = $1`,
    [userId],
  );
  const user = rows[0];
  if (!user) return undefined;
  const isOwner = viewerId === user.id;
  const base = {
    username: user.username,
    profile_img: userImageName(user.id, user.profile_img),
    isPrivate: user.is_private,
    isOwner,
  };
  if (user.is_private && !isOwner) return { ...base, name: [user.username], joined_communities: {} };
  const joined = await joinedList(db, user.id);
  return {
    ...base,
    // The spec's `name` is a list of words; ours is the username split at underscores.
    name: user.username.split('_').filter(Boolean),
    joined_communities: Object.fromEntries(joined.map((c) => [c.endpoint, { name: c.name, img: c.img }])),
    geo_group: user.geo_name ?? undefined,
  };
}

/** The logged-in player's own profile: a session whose user is gone is no session. */
export async function ownProfile(db: Queryable, userId: number): Promise<Profile> {
  const profile = await presentProfile(db, userId, userId);
  if (!profile) throw new HttpError(401, 'Please log in first');
  return profile;
}
