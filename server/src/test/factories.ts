import type { QuestionInput } from '@hunch/contract';
import sharp from 'sharp';
import { createCommunity, createSeries } from '../hosting/authoring';
import type { Queryable } from '../platform/db/database';
import { createGame } from './authoring';
import type { TestClient } from './test-app';

let seq = 0;
const next = () => `${Date.now().toString(36).slice(-4)}${(seq++).toString(36)}`;

/** Registration fields that pass every check; override what a test is about. */
export interface RegistrationFields extends Record<string, string> {
  username: string;
  password: string;
  email: string;
  zipcode: string;
  date_of_birth: string;
}

export function registrationFields(overrides: Record<string, string> = {}): RegistrationFields {
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

export async function makeCommunity(
  db: Queryable,
  overrides: { endpoint?: string; name?: string; category?: string } = {},
) {
  const endpoint = overrides.endpoint ?? `club-${next()}`;
  const id = await createCommunity(db, {
    endpoint,
    name: overrides.name ?? `Club ${endpoint}`,
    categories: [{ group: 'Test', name: overrides.category ?? 'Testing' }],
  });
  return { id, endpoint };
}

export const pngBytes = (width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

export const jpegBytes = (width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 3, background: '#ff6633' } })
    .jpeg()
    .toBuffer();

const MIN = 60_000;

/** A vote and the guess linked to it: the pair every question set of the tests starts with. */
export const colourQuestions: QuestionInput[] = [
  {
    kind: 'vote',
    text: 'Favourite colour?',
    choices: [{ text: 'Red' }, { text: 'Green' }, { text: 'Blue' }],
  },
  {
    kind: 'guess',
    text: 'Most popular colour?',
    choices: [{ text: 'Red' }, { text: 'Green' }, { text: 'Blue' }],
    linked_vote_i: 0,
  },
];

/** The standard test question set: every kind, a guess linked to a vote, host and crowd predicts. */
export const standardQuestions: QuestionInput[] = [
  ...colourQuestions,
  {
    kind: 'predict',
    text: 'Degrees tomorrow?',
    slider: { min: 0, max: 40, step: 0.5, unit: '°C' },
    outcome: 20,
  },
  { kind: 'predict', text: 'Cups of coffee?', slider: { min: 0, max: 10, step: 1, unit: 'cups' } },
  { kind: 'guess', text: 'Most popular pet?', choices: [{ text: 'Dog' }, { text: 'Cat' }] },
];

/**
 * A community with a series and one game, scheduled around `now`: open from 10 minutes ago until
 * `openFor` minutes from now, then standby for 5 minutes, then complete.
 */
export async function makeGame(
  db: Queryable,
  now: Date,
  opts: {
    openFor?: number;
    synchronous?: boolean;
    subcommunities?: string[];
    community?: { id: number; endpoint: string };
  } = {},
) {
  const community = opts.community ?? (await makeCommunity(db));
  const seriesEndpoint = `series-${next()}`;
  const seriesId = await createSeries(db, {
    communityId: community.id,
    endpoint: seriesEndpoint,
    name: 'Test Series',
  });
  const open = new Date(now.getTime() - 10 * MIN);
  const standby = new Date(now.getTime() + (opts.openFor ?? 60) * MIN);
  const complete = new Date(standby.getTime() + 5 * MIN);
  const uuid = await createGame(db, seriesId, {
    name: 'Test Game',
    schedule: { open, standby, complete },
    synchronous: opts.synchronous ?? false,
    subcommunities: opts.subcommunities ?? [],
    questions: standardQuestions,
  });
  return { uuid, community, seriesEndpoint, schedule: { open, standby, complete } };
}
