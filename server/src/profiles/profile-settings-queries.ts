import type { Queryable } from '../platform/db/database';

export async function setProfilePrivate(db: Queryable, userId: number, isPrivate: boolean): Promise<void> {
  await db.query('UPDATE users SET is_private = $2 WHERE id = $1', [userId, isPrivate]);
}

/** Sets the player's image and returns the one it replaced (null for the default), to remove. */
export async function replaceProfileImage(
  db: Queryable,
  userId: number,
  image: string,
): Promise<string | null> {
  const { rows } = await db.query<{ old: string | null }>(
    `UPDATE users u SET profile_img = $2 FROM (SELECT profile_img AS old FROM users WHERE id = $1) prev
      WHERE u.id = $1 RETURNING prev.old`,
    [userId, image],
  );
  return rows[0]?.old ?? null;
}
