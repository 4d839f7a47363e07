import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes, registerPlayer } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/test-app';
import { dbKinds } from '../../test/test-db';
import { FORM_FIELD_MAX_BYTES } from './form-body';

/**
 * Multipart forms no browser sends, on every form route of the app. The audit got 500s ('Boundary
 * not found', 'Unexpected end of multipart data'); each must be a 400 with a sentence.
 */

const part = (name: string, value: string) =>
  `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, data = 'not really an image') =>
  `--x\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${data}\r\n`;
const login = part('username', 'someone_1') + part('password', 'secret!42');

const noBoundary = 'The form could not be read: its multipart boundary is missing or malformed';
const cutShort = 'The form could not be read: it ended before its closing boundary';

/** [case, content type, body, expected text ('': the route's own)] sent to every form route. */
const malformed: [string, string, string, string][] = [
  ['no boundary', 'multipart/form-data', `${login}--x--\r\n`, noBoundary],
  // An empty boundary is a boundary: no part ever ends with it.
  ['an empty boundary', 'multipart/form-data; boundary=', `${login}--x--\r\n`, cutShort],
  [
    'a boundary too long',
    `multipart/form-data; boundary=${'b'.repeat(300)}`,
    `${login}--x--\r\n`,
    noBoundary,
  ],
  ['the wrong boundary', 'multipart/form-data; boundary=y', `${login}--x--\r\n`, cutShort],
  ['a body cut short', 'multipart/form-data; boundary=x', login.slice(0, -9), cutShort],
  ['a body with no parts', 'multipart/form-data; boundary=x', 'garbage', cutShort],
  // No parts at all is an empty form: the route names what is missing.
  ['an empty body', 'multipart/form-data; boundary=x', '', ''],
  [
    'too many fields',
    'multipart/form-data; boundary=x',
    `${Array.from({ length: 30 }, (_, i) => part(`f${i}`, 'v')).join('')}--x--\r\n`,
    'Too many form fields',
  ],
  [
    'a field named __proto__',
    'multipart/form-data; boundary=x',
    `${part('__proto__', 'x')}--x--\r\n`,
    'The form has a field name that is not allowed',
  ],
];

describe.each(dbKinds)('malformed multipart forms (%s)', (kind) => {
  let t: TestApp;
  let player: TestClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    player = t.client();
    await registerPlayer(player);
  });
  afterAll(() => t?.close());

  const send = (client: TestClient, method: 'PUT' | 'POST', url: string, contentType: string, body: string) =>
    // latin1: one byte per character, so an image's bytes go out as they are.
    client.request(method, url, { multipart: { body: Buffer.from(body, 'latin1'), contentType } });
  const routes: [string, 'PUT' | 'POST', string, () => TestClient][] = [
    ['register', 'POST', '/api/register', () => t.client()],
    ['login', 'PUT', '/api/login', () => t.client()],
    ['profile_image', 'PUT', '/api/profile_image', () => player],
  ];

  for (const [name, method, url, client] of routes) {
    it(`${method} ${url} answers each with a 400 and a sentence`, async () => {
      for (const [label, contentType, body, text] of malformed) {
        const res = await send(client(), method, url, contentType, body);
        expect([name, label, res.statusCode, res.body, res.headers['content-type']]).toEqual([
          name,
          label,
          400,
          text || expect.stringMatching(/^(Please fill in|Username and password|Send the image)/),
          'text/plain; charset=utf-8',
        ]);
      }
    });
  }

  it('refuses a text field over 4 KB on every form route, a field of 4 KB reads on', async () => {
    // The parser's default was 1 MB a field, all read before the login throttle: 20 MB a request.
    const long = 'x'.repeat(FORM_FIELD_MAX_BYTES + 1);
    for (const [name, method, url, client] of routes) {
      for (const field of ['username', 'password', 'anything']) {
        const res = await send(
          client(),
          method,
          url,
          'multipart/form-data; boundary=x',
          `${part(field, long)}--x--\r\n`,
        );
        expect([name, field, res.statusCode, res.body]).toEqual([
          name,
          field,
          413,
          'A form field is too long (4 KB at most)',
        ]);
      }
    }
    // At the limit: read, and refused by the route's own check of the value.
    const atLimit = part('username', 'x'.repeat(FORM_FIELD_MAX_BYTES)) + part('password', 'secret!42');
    const res = await send(
      t.client(),
      'PUT',
      '/api/login',
      'multipart/form-data; boundary=x',
      `${atLimit}--x--\r\n`,
    );
    expect(res.statusCode).not.toBe(413);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('refuses a second image, and an image under another name', async () => {
    const image = (await pngBytes()).toString('latin1');
    for (const [, method, url, client] of routes.filter(([n]) => n !== 'login')) {
      const two = await send(
        client(),
        method,
        url,
        'multipart/form-data; boundary=x',
        `${filePart('profile_img', image)}${filePart('profile_img', image)}--x--\r\n`,
      );
      expect([url, two.statusCode, two.body]).toEqual([url, 400, 'Send one image at most']);
      const renamed = await send(
        client(),
        method,
        url,
        'multipart/form-data; boundary=x',
        `${filePart('avatar')}--x--\r\n`,
      );
      expect([url, renamed.statusCode, renamed.body]).toEqual([
        url,
        400,
        'Send the image as the form field profile_img',
      ]);
    }
  });

  it('tells an empty file chosen from one not chosen at all (an empty input sends no file name)', async () => {
    const empty = await send(
      player,
      'PUT',
      '/api/profile_image',
      'multipart/form-data; boundary=x',
      `${filePart('profile_img', '')}--x--\r\n`,
    );
    expect([empty.statusCode, empty.body]).toEqual([
      400,
      'The image file is empty: choose a JPEG or PNG picture',
    ]);
    const none = await send(
      player,
      'PUT',
      '/api/profile_image',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="profile_img"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--x--\r\n',
    );
    expect([none.statusCode, none.body]).toEqual([
      400,
      'Send the image as a multipart form field named profile_img',
    ]);
  });

  it('refuses a file on login, even with the right password, and logs nobody in', async () => {
    const owner = t.client();
    const fields = await registerPlayer(owner);
    const visitor = t.client();
    const res = await send(
      visitor,
      'PUT',
      '/api/login',
      'multipart/form-data; boundary=x',
      `${part('username', fields.username)}${part('password', fields.password)}${filePart('profile_img')}--x--\r\n`,
    );
    expect([res.statusCode, res.body]).toEqual([400, 'This form takes no file']);
    expect(visitor.loggedIn).toBe(false);
    // The same form without the file logs in.
    const ok = await send(
      visitor,
      'PUT',
      '/api/login',
      'multipart/form-data; boundary=x',
      `${part('username', fields.username)}${part('password', fields.password)}--x--\r\n`,
    );
    expect(ok.statusCode).toBe(200);
  });

  it('still takes a well-formed profile image', async () => {
    const image = (await pngBytes()).toString('latin1');
    const res = await send(
      player,
      'PUT',
      '/api/profile_image',
      'multipart/form-data; boundary=x',
      `${filePart('profile_img', image)}--x--\r\n`,
    );
    expect(res.statusCode).toBe(200);
  });
});
