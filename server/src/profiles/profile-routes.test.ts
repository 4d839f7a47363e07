import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegBytes, pngBytes, registerPlayer } from '../test/factories';
import { multipart, startTestApp, type TestApp } from '../test/test-app';
import { dbKinds } from '../test/test-db';

describe.each(dbKinds)('profiles API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const upload = (data: Buffer, contentType = 'image/png', field = 'profile_img') =>
    multipart({}, { field, filename: 'pic', contentType, data });

  it('refuses anonymous access to every profile call', async () => {
    const anon = t.client();
    expect((await anon.get('/api/profile')).statusCode).toBe(401);
    expect((await anon.get('/api/profile?u=someone_else')).statusCode).toBe(401);
    expect((await anon.put('/api/profile_visibility', { json: { private_profile: true } })).statusCode).toBe(
      401,
    );
    expect((await anon.put('/api/profile_image', { multipart: upload(await pngBytes()) })).statusCode).toBe(
      401,
    );
  });

  it('shows another public profile, and only username and image of a private one', async () => {
    const owner = t.client();
    const fields = await registerPlayer(owner);
    const viewer = t.client();
    await registerPlayer(viewer);
    const open = await viewer.get(`/api/profile?u=${fields.username.toUpperCase()}`);
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({
      username: fields.username,
      isPrivate: false,
      isOwner: false,
      geo_group: 'Greater Houston, TX',
    });
    expect(Object.keys(open.json().joined_communities)).toContain('greater-houston-tx');

    const set = await owner.put('/api/profile_visibility', { json: { private_profile: true } });
    expect(set.statusCode).toBe(200);
    expect(set.json().isPrivate).toBe(true);
    const hidden = (await viewer.get(`/api/profile?u=${fields.username}`)).json();
    expect(hidden).toEqual({
      username: fields.username,
      name: [fields.username],
      profile_img: '_.jpg',
      isPrivate: true,
      isOwner: false,
      joined_communities: {},
    });
    // The owner still sees everything.
    expect((await owner.get('/api/profile')).json().geo_group).toBe('Greater Houston, TX');
  });

  it('answers an unknown or malformed username with 404', async () => {
    const viewer = t.client();
    await registerPlayer(viewer);
    expect((await viewer.get('/api/profile?u=nobody_at_all')).statusCode).toBe(404);
    expect(
      (await viewer.get(`/api/profile?u=${encodeURIComponent("'; DROP TABLE users; --")}`)).statusCode,
    ).toBe(404);
    expect((await viewer.get(`/api/profile?u=${'x'.repeat(500)}`)).statusCode).toBe(400);
  });

  it('validates the visibility body', async () => {
    const owner = t.client();
    await registerPlayer(owner);
    for (const json of [{}, { private_profile: 'yes' }, { private_profile: 1 }, null, []]) {
      const res = await owner.put('/api/profile_visibility', { json });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/private_profile/);
    }
    const broken = await owner.request(
      'PUT',
      '/api/profile_visibility',
      {},
      { headers: { 'content-type': 'application/json' } },
    );
    expect(broken.statusCode).toBe(400);
    expect((await owner.get('/api/profile')).json().isPrivate).toBe(false);
  });

  it('stores an uploaded PNG or JPEG as a fresh, resized JPEG and replaces the old one', async () => {
    const owner = t.client();
    await registerPlayer(owner);
    const first = await owner.put('/api/profile_image', { multipart: upload(await pngBytes(1200, 800)) });
    expect(first.statusCode).toBe(200);
    const img1 = first.json().profile_img as string;
    const served = await t.app.inject({ url: `/assets/users/${img1}` });
    expect(served.statusCode).toBe(200);
    const sharp = (await import('sharp')).default;
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 256, 256, undefined]);

    const second = await owner.put('/api/profile_image', {
      multipart: upload(await jpegBytes(), 'application/octet-stream'),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().profile_img).not.toBe(img1);
    expect((await t.app.inject({ url: `/assets/users/${img1}` })).statusCode).toBe(404);
  });

  it('refuses non-images, images in other formats, pixel floods and missing files', async () => {
    const owner = t.client();
    await registerPlayer(owner);
    const sharp = (await import('sharp')).default;
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const cases: [Buffer | null, number, RegExp][] = [
      [Buffer.from('GIF89a not really'), 400, /JPEG or PNG/],
      [gif, 400, /JPEG or PNG/],
      [Buffer.from('%PDF-1.4 pretending'), 400, /JPEG or PNG/],
      [
        await sharp({ create: { width: 7_000, height: 7_000, channels: 3, background: '#fff' } })
          .png({ compressionLevel: 9 })
          .toBuffer(),
        400,
        /too many pixels/,
      ],
    ];
    for (const [data, status, text] of cases) {
      const res = await owner.put('/api/profile_image', { multipart: upload(data!) });
      expect(res.statusCode).toBe(status);
      expect(res.body).toMatch(text);
    }
    const wrongField = await owner.put('/api/profile_image', {
      multipart: upload(await pngBytes(), 'image/png', 'avatar'),
    });
    expect(wrongField.statusCode).toBe(400);
    const notMultipart = await owner.put('/api/profile_image', { json: { profile_img: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
    expect((await owner.get('/api/profile')).json().profile_img).toBe('_.jpg');
  });

  it('serves the default image', async () => {
    const res = await t.app.inject({ url: '/assets/users/_.jpg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/jpeg/);
  });
});
