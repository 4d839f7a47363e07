import {
  accountMessages,
  type CheckField,
  dateOfBirthSchema,
  emailSchema,
  type Registration,
  usernameSchema,
  zipcodeSchema,
} from '@hunch/contract';
import { ageOn, isInFuture, isOldEnough } from '@hunch/rules';
import { addMembership } from '../core/community-queries';
import type { Db, Queryable } from '../platform/db/database';
import { HttpError } from '../platform/http/http-error';
import { badgeImage, storeImage } from '../platform/images';
import { type GeoGroup, geoGroupFor } from './geo-groups';
import { hashPassword } from './passwords';

export const GEO_CATEGORY = 'Local';
export const GEO_CATEGORY_GROUP = 'Places';

/** The answer of one registration field check (spec §5): a status and a text or body. */
export type CheckResult =
  | { status: 200; body: { name: string } | 'OK' }
  | { status: 400 | 403 | 404 | 409; body: string };

export async function checkRegistrationField(
  db: Queryable,
  field: CheckField,
  value: string,
  today: Date,
): Promise<CheckResult> {
  switch (field) {
    case 'username': {
      // The name as sign-up stores it (trimmed): 'taken ' is as taken as 'taken'.
      const name = usernameSchema.safeParse(value);
      if (!name.success) return { status: 400, body: accountMessages.usernameInvalid };
      const { rows } = await db.query('SELECT 1 FROM users WHERE username_key = lower($1)', [name.data]);
      return rows.length ? { status: 409, body: accountMessages.usernameTaken } : { status: 200, body: 'OK' };
    }
    case 'email': {
      if (!emailSchema.safeParse(value).success) return { status: 400, body: accountMessages.emailInvalid };
      const { rows } = await db.query('SELECT 1 FROM users WHERE email_key = lower($1)', [value]);
      return rows.length ? { status: 409, body: accountMessages.emailTaken } : { status: 200, body: 'OK' };
    }
    case 'zipcode': {
      if (!zipcodeSchema.safeParse(value).success)
        return { status: 400, body: accountMessages.zipcodeInvalid };
      const group = geoGroupFor(value);
      return group
        ? { status: 200, body: { name: group.name } }
        : { status: 404, body: accountMessages.zipcodeUnknown };
    }
    case 'DoB': {
      if (!dateOfBirthSchema.safeParse(value).success || isInFuture(value, today)) {
        return { status: 400, body: accountMessages.dobInvalid };
      }
      return isOldEnough(value, today)
        ? { status: 200, body: 'OK' }
        : { status: 403, body: accountMessages.tooYoung };
    }
  }
}

/** Finds or creates the geo-group community for a zipcode's metro area. */
export async function ensureGeoCommunity(
  db: Queryable,
  group: GeoGroup,
  uploadsDir: string,
): Promise<number> {
  const existing = await db.query<{ id: number }>('SELECT id FROM communities WHERE endpoint = $1', [
    group.endpoint,
  ]);
  if (existing.rows[0]) return existing.rows[0].id;
  const hue = [...group.endpoint].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  const image = await storeImage(
    uploadsDir,
    'communities',
    await badgeImage(group.name.replace('Greater ', ''), hue, 'communities'),
    `geo-${group.endpoint}.jpg`,
  );
  await db.query(
    `INSERT INTO communities (endpoint, name, image, description, kind) VALUES ($1, $2, $3, $4, 'geo')
     ON CONFLICT (endpoint) DO NOTHING`,
    [
      group.endpoint,
      group.name,
      image,
      `Players who live in and around ${group.name.replace('Greater ', '')}.`,
    ],
  );
  const { rows } = await db.query<{ id: number }>('SELECT id FROM communities WHERE endpoint = $1', [
    group.endpoint,
  ]);
  const id = rows[0]!.id;
  await db.query(
    'INSERT INTO category_groups (name, position) VALUES ($1, 99) ON CONFLICT (name) DO NOTHING',
    [GEO_CATEGORY_GROUP],
  );
  await db.query(
    `INSERT INTO categories (group_id, name) SELECT id, $2 FROM category_groups WHERE name = $1 LIMIT 1
     ON CONFLICT (name) DO NOTHING`,
    [GEO_CATEGORY_GROUP, GEO_CATEGORY],
  );
  await db.query(
    `INSERT INTO community_categories (community_id, category_id) SELECT $1, id FROM categories WHERE name = $2
     ON CONFLICT DO NOTHING`,
    [id, GEO_CATEGORY],
  );
  return id;
}

function isUniqueViolation(err: unknown): err is { code: string; constraint?: string; message: string } {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

/**
 * Creates the account, joins its geo-group, and returns the new user id. Everything is written in
 * one transaction; a clash with an existing username or e-mail becomes the spec's 409.
 */
export async function registerUser(
  db: Db,
  form: Registration,
  profileImg: string | null,
  uploadsDir: string,
  today: Date,
): Promise<number> {
  if (isInFuture(form.date_of_birth, today)) throw new HttpError(400, accountMessages.dobInvalid);
  if (!isOldEnough(form.date_of_birth, today)) throw new HttpError(403, accountMessages.tooYoung);
  const group = geoGroupFor(form.zipcode);
  if (!group) throw new HttpError(404, accountMessages.zipcodeUnknown);
  const passwordHash = await hashPassword(form.password);
  try {
    return await db.transaction(async (tx) => {
      const taken = await tx.query<{ u: boolean; e: boolean }>(
        `SELECT bool_or(username_key = lower($1)) AS u, bool_or(email_key = lower($2)) AS e
           FROM users WHERE username_key = lower($1) OR email_key = lower($2)`,
        [form.username, form.email],
      );
      if (taken.rows[0]?.u) throw new HttpError(409, accountMessages.usernameTaken);
      if (taken.rows[0]?.e) throw new HttpError(409, accountMessages.emailTaken);
      const geoId = await ensureGeoCommunity(tx, group, uploadsDir);
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO users (username, username_key, email, email_key, password_hash, zipcode, geo_community_id,
                            date_of_birth, gender, profile_img, is_private)
         VALUES ($1, lower($1), $2, lower($2), $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          form.username,
          form.email,
          passwordHash,
          form.zipcode,
          geoId,
          form.date_of_birth,
          form.gender ?? null,
          profileImg,
          // Minors' profiles start private (DESIGN §2).
          ageOn(form.date_of_birth, today) < 18,
        ],
      );
      const userId = rows[0]!.id;
      await addMembership(tx, userId, geoId);
      return userId;
    });
  } catch (err) {
    // Two registrations racing for one name: the unique index decides, the loser gets the 409.
    if (isUniqueViolation(err)) {
      const onEmail = `${err.constraint ?? ''} ${err.message}`.includes('email');
      throw new HttpError(409, onEmail ? accountMessages.emailTaken : accountMessages.usernameTaken);
    }
    throw err;
  }
}
