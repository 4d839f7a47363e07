import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { pngBytes } from '../test/factories';
import { adminName, postSeason, seasonDoc, signUp, uploadHostImage } from '../test/hosting-factories';
import { multipart, startTestApp, type TestApp } from '../test/test-app';

const HOUR = 3_600_000;

describe('the upload limit', () => {
  let t: TestApp;
  const name = adminName();
  beforeAll(async () => {
    const rateLimits = { ...loadConfig({}).rateLimits, uploads: { max: 2, windowMs: HOUR } };
    t = await startTestApp('pglite', { config: { adminUsers: [name], rateLimits } });
  });
  afterAll(() => t.close());

  it('answers 429 with a sentence past LIMIT_UPLOADS_PER_HOUR', async () => {
    expect(loadConfig({}).rateLimits.uploads).toEqual({ max: 120, windowMs: HOUR });
    expect(loadConfig({ LIMIT_UPLOADS_PER_HOUR: '7' }).rateLimits.uploads.max).toBe(7);
    const admin = t.client();
    await signUp(admin, name);
    const png = await pngBytes();
    for (let i = 0; i < 2; i++) expect((await uploadHostImage(admin, 'games', png)).statusCode).toBe(201);
    const over = await uploadHostImage(admin, 'games', png);
    expect(over.statusCode).toBe(429);
    expect(over.body).toMatch(
      /^Too many images were uploaded from this address\. Try again in \d+ minutes?\.$/,
    );
    // A player's profile picture has the same limit, counted on its own: each upload is decoded
    // and re-encoded, which an address must not repeat at will.
    const profilePicture = () =>
      admin.put('/api/profile_image', {
        multipart: multipart(
          {},
          { field: 'profile_img', filename: 'me.png', contentType: 'image/png', data: png },
        ),
      });
    for (let i = 0; i < 2; i++) expect((await profilePicture()).statusCode).toBe(200);
    const tooMany = await profilePicture();
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.body).toMatch(/^Too many images were uploaded from this address\./);
  });
});

describe('the season write limit', () => {
  let t: TestApp;
  const name = adminName();
  beforeAll(async () => {
    const rateLimits = { ...loadConfig({}).rateLimits, imports: { max: 3, windowMs: HOUR } };
    t = await startTestApp('pglite', { config: { adminUsers: [name], rateLimits } });
  });
  afterAll(() => t.close());

  it('answers 429 with a sentence past LIMIT_IMPORTS_PER_HOUR, dry runs counted, and writes nothing', async () => {
    expect(loadConfig({}).rateLimits.imports).toEqual({ max: 600, windowMs: HOUR });
    expect(loadConfig({ LIMIT_IMPORTS_PER_HOUR: '9' }).rateLimits.imports.max).toBe(9);
    const admin = t.client();
    await signUp(admin, name);
    const docs = [0, 1, 2, 3].map(() => seasonDoc(new Date(Date.now() + 24 * HOUR)));
    expect((await postSeason(admin, docs[0]!, { dryRun: true })).statusCode).toBe(200);
    for (const doc of docs.slice(1, 3)) expect((await postSeason(admin, doc)).statusCode).toBe(200);
    const over = await postSeason(admin, docs[3]!);
    expect(over.statusCode).toBe(429);
    expect(over.body).toMatch(
      /^Too many season files were sent from this address\. Try again in \d+ minutes?\.$/,
    );
    // The refused file created nothing: its community is unknown.
    const refused = await admin.get(`/api/community/${docs[3]!.community.endpoint}`);
    expect(refused.statusCode).toBe(404);
    // Other calls of the console go on.
    expect((await admin.get('/api/host/communities')).statusCode).toBe(200);
  });
});
