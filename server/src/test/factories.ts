import sharp from 'sharp';
import type { Queryable } from '../db/database';
import { createCommunity } from '../hosting/authoring';
import type { TestClient } from './test-app';

let seq = 0;
const next = () => `${Date.now().toString(36).slice(-4)}${(seq++).toString(36)}`;

/** Registration fields that pass every check; override what a test is about. */
export function registrationFields(overrides: Record<string, string> = {}): Record<string, string> {
  const id = next();
  return {
    username: `player_${id}`,
    password: 'secret!42',
    email: `player_${id}@example.com`,
    zipcode: '77002',
    date_of_birth: '1990-05-17',
    ...overrides,
  };
}

/** Registers and logs in through the real API; returns the fields used. */
export async function registerPlayer(client: TestClient, overrides: Record<string, string> = {}) {
  const fields = registrationFields(overrides);
  const res = await client.post('/api/register', { form: fields });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return fields;
}

export async function makeCommunity(db: Queryable, overrides: { endpoint?: string; name?: string; category?: string } = {}) {
  const endpoint = overrides.endpoint ?? `club-${next()}`;
  const id = await createCommunity(db, {
    endpoint,
    name: overrides.name ?? `Club ${endpoint}`,
    categories: [{ group: 'Test', name: overrides.category ?? 'Testing' }],
  });
  return { id, endpoint };
}

export const pngBytes = (width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 3, background: '#3366ff' } }).png().toBuffer();

export const jpegBytes = (width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 3, background: '#ff6633' } }).jpeg().toBuffer();
