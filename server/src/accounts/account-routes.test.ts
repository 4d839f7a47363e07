import { accountMessages } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegBytes, registerPlayer, registrationFields } from '../test/factories';
import { multipart, startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

describe.each(dbKinds)('accounts API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.now = new Date('2026-11-22T15:00:00Z');
  });
  afterAll(() => t.close());

  const check = (field: string, value: string) =>
    t.client().get(`/api/check_registration/${field}?check=${encodeURIComponent(value)}`);

  describe('GET /api/check_registration', () => {
    it('answers every status and text of spec §5', async () => {
      const taken = await registerPlayer(t.client(), { username: 'Taken_Name' });
      const cases: [string, string, number, string][] = [
        ['username', 'fresh_name', 200, 'OK'],
        ['username', 'taken_name', 409, 'Username unavailable'], // case-insensitive
        ['username', 'TAKEN_NAME', 409, 'Username unavailable'],
        ['username', 'abc', 400, 'Invalid username'],
        ['username', 'a'.repeat(21), 400, 'Invalid username'],
        ['username', "x' OR '1'='1", 400, 'Invalid username'],
        ['email', 'new@example.com', 200, 'OK'],
        ['email', taken.email.toUpperCase(), 409, 'Email address unavailable'],
        ['email', 'not-an-email', 400, 'Invalid email address'],
        ['zipcode', '1234', 400, 'Invalid zipcode'],
        ['zipcode', '99999', 404, 'Zipcode unavailable'],
        ['DoB', '2014-11-22', 200, 'OK'], // exactly 12 today
        ['DoB', '2014-11-23', 403, 'Age 12+ required'],
        ['DoB', '2023-02-29', 400, 'Invalid date of birth'],
        ['DoB', '2030-01-01', 400, 'Invalid date of birth'],
        ['DoB', '2026-12-22', 400, 'Invalid date of birth'], // under a year ahead: still the future
        ['DoB', 'yesterday', 400, 'Invalid date of birth'],
      ];
      for (const [field, value, status, text] of cases) {
        const res = await check(field, value);
        expect([field, value, res.statusCode, res.body]).toEqual([field, value, status, text]);
      }
    });

    it('returns the geo-group name for a known zipcode', async () => {
      const res = await check('zipcode', '77002');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'Greater Houston, TX' });
    });

    it('answers a missing check parameter and an unknown field with a 4xx text', async () => {
      const missing = await t.client().get('/api/check_registration/username');
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toBe('Invalid username');
      const unknown = await check('shoe_size', '42');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toMatch(/Unknown registration field/);
    });
  });

  describe('POST /api/register', () => {
    it('creates the account, signs in, joins the geo-group and answers 201 with the profile', async () => {
      const client = t.client();
      const fields = registrationFields({ gender: 'Specified text' });
      const res = await client.post('/api/register', { multipart: multipart(fields) });
      expect(res.statusCode).toBe(201);
      const profile = res.json();
      expect(profile.username).toBe(fields.username);
      expect(profile.isPrivate).toBe(false);
      expect(profile.profile_img).toMatch(/^avatar-[0-9a-f]{16}\.png$/);
      expect(profile.joined_communities['greater-houston-tx']).toMatchObject({ name: 'Greater Houston, TX' });
      const cookie = res.cookies.find((c) => c.name === 'hunch_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect((await client.get('/api/profile')).json().username).toBe(fields.username);
    });

    it('accepts urlencoded forms and a profile image, stored re-encoded', async () => {
      const client = t.client();
      const fields = registrationFields();
      const res = await client.post('/api/register', {
        multipart: multipart(fields, {
          field: 'profile_img',
          filename: 'me.jpg',
          contentType: 'image/jpeg',
          data: await jpegBytes(400, 300),
        }),
      });
      expect(res.statusCode).toBe(201);
      const img = res.json().profile_img as string;
      expect(img).toMatch(/^[0-9a-f-]{36}\.jpg$/);
      const asset = await t.app.inject({ url: `/assets/users/${img}` });
      expect(asset.statusCode).toBe(200);
      expect(asset.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    });

    it('makes the profiles of minors private from the start', async () => {
      const res = await t
        .client()
        .post('/api/register', { form: registrationFields({ date_of_birth: '2010-01-01' }) });
      expect(res.statusCode).toBe(201);
      expect(res.json().isPrivate).toBe(true);
    });

    it('refuses taken usernames and e-mails whatever their case, writing nothing', async () => {
      const first = await registerPlayer(t.client());
      const sameName = await t.client().post('/api/register', {
        form: registrationFields({ username: first.username.toUpperCase() }),
      });
      expect([sameName.statusCode, sameName.body]).toEqual([409, 'Username unavailable']);
      const sameEmail = await t
        .client()
        .post('/api/register', { form: registrationFields({ email: first.email.toUpperCase() }) });
      expect([sameEmail.statusCode, sameEmail.body]).toEqual([409, 'Email address unavailable']);
      const { rows } = await t.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM users WHERE username_key = lower($1)',
        [first.username],
      );
      expect(rows[0]!.n).toBe(1);
    });

    it('answers bad forms with the field’s text and writes nothing', async () => {
      const before = (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n;
      const cases: [Record<string, string>, number, string][] = [
        [registrationFields({ username: 'bad name' }), 400, 'Invalid username'],
        [registrationFields({ email: 'nope' }), 400, 'Invalid email address'],
        [registrationFields({ zipcode: '12' }), 400, 'Invalid zipcode'],
        [registrationFields({ zipcode: '99999' }), 404, 'Zipcode unavailable'],
        [registrationFields({ date_of_birth: '2020-01-01' }), 403, 'Age 12+ required'],
        [registrationFields({ date_of_birth: '31/12/1990' }), 400, 'Invalid date of birth'],
        [
          registrationFields({ password: 'short' }),
          400,
          'Password must be 6-20 characters: letters, digits or ? ! @ # $ % ^ & * ( ) + =',
        ],
        [registrationFields({ gender: 'g'.repeat(21) }), 400, 'Gender must be at most 20 characters'],
        [{ username: 'only_a_name' }, 400, 'Please fill in every required field'],
      ];
      for (const [form, status, text] of cases) {
        const res = await t.client().post('/api/register', { form });
        expect([res.statusCode, res.body]).toEqual([status, text]);
      }
      const json = await t
        .client()
        .post('/api/register', { json: { ...registrationFields(), zipcode: 77002 } });
      expect(json.statusCode).toBe(400);
      const broken = await t
        .client()
        .request('POST', '/api/register', {}, { headers: { 'content-type': 'application/json' } });
      expect(broken.statusCode).toBeGreaterThanOrEqual(400);
      expect(broken.statusCode).toBeLessThan(500);
      const after = (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n;
      expect(after).toBe(before);
    });

    it('refuses non-image and oversized uploads by their bytes', async () => {
      const fake = await t.client().post('/api/register', {
        multipart: multipart(registrationFields(), {
          field: 'profile_img',
          filename: 'me.png',
          contentType: 'image/png',
          data: Buffer.from('<?php echo "hi"; ?>'),
        }),
      });
      expect([fake.statusCode, fake.body]).toEqual([400, 'The image must be a JPEG or PNG picture']);
      const huge = await t.client().post('/api/register', {
        multipart: multipart(registrationFields(), {
          field: 'profile_img',
          filename: 'big.jpg',
          contentType: 'image/jpeg',
          data: Buffer.alloc(6 * 1024 * 1024, 1),
        }),
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.body).toMatch(/too large/);
    });

    it('requires the CSRF token, however the path is spelled', async () => {
      for (const url of ['/api/register', '/%61pi/register', '/api/%72egister']) {
        const res = await t.client().request('POST', url, { form: registrationFields() }, { csrf: false });
        expect([url, res.statusCode, res.body]).toEqual([url, 403, accountMessages.csrfRefused]);
      }
    });
  });

  describe('PUT /api/login and /api/logout', () => {
    it('logs in case-insensitively, and logs out', async () => {
      const fields = await registerPlayer(t.client());
      const client = t.client();
      const res = await client.put('/api/login', {
        form: { username: fields.username.toUpperCase(), password: fields.password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().username).toBe(fields.username);
      expect((await client.get('/api/profile')).statusCode).toBe(200);
      const out = await client.put('/api/logout');
      expect(out.statusCode).toBe(200);
      expect((await client.get('/api/profile')).statusCode).toBe(401);
    });

    it('reads a name typed with spaces around it (a phone keyboard’s) as the name, at sign-up and login', async () => {
      const fields = await registerPlayer(t.client());
      const client = t.client();
      const res = await client.put('/api/login', {
        form: { username: ` ${fields.username} `, password: fields.password },
      });
      expect([res.statusCode, res.json().username]).toEqual([200, fields.username]);
      // The field check reads it as sign-up will: a taken name with a space is taken.
      const check = await t.client().get(`/api/check_registration/username?check=${fields.username}%20`);
      expect(check.statusCode).toBe(409);
      const spaced = await registerPlayer(t.client(), { username: `sp_${Date.now().toString(36)} ` });
      const again = t.client();
      const back = await again.put('/api/login', {
        form: { username: spaced.username.trim(), password: spaced.password },
      });
      expect([back.statusCode, back.json().username]).toEqual([200, spaced.username.trim()]);
    });

    it('a login over another session ends that one; the account’s expired sessions go', async () => {
      const first = await registerPlayer(t.client());
      const second = await registerPlayer(t.client());
      const browser = t.client();
      const logIn = (f: { username: string; password: string }) =>
        browser.put('/api/login', { form: { username: f.username, password: f.password } });
      expect((await logIn(first)).statusCode).toBe(200);
      // The newest of the first account's sessions (its sign-up's, in another browser, stays).
      const [old] = (
        await t.ctx.db.query<{ token_hash: string }>(
          `SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = $1
          ORDER BY s.expires_at DESC LIMIT 1`,
          [first.username],
        )
      ).rows;
      // A session of the second account that has expired: nobody can use it.
      await t.ctx.db.query(
        `INSERT INTO sessions (token_hash, user_id, expires_at)
         SELECT 'expired-' || id, id, now() - interval '1 day' FROM users WHERE username = $1`,
        [second.username],
      );
      expect((await logIn(second)).statusCode).toBe(200);
      const left = await t.ctx.db.query<{ token_hash: string; username: string }>(
        `SELECT s.token_hash, u.username FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE u.username = ANY($1::text[])`,
        [[first.username, second.username]],
      );
      const tokens = left.rows.map((r) => r.token_hash);
      expect(tokens).not.toContain(old!.token_hash);
      expect(tokens.filter((h) => h.startsWith('expired-'))).toEqual([]);
      // The sign-ups' sessions and the new login's.
      expect(left.rows.map((r) => r.username).sort()).toEqual(
        [first.username, second.username, second.username].sort(),
      );
      expect((await browser.get('/api/profile')).json().username).toBe(second.username);
    });

    it('answers wrong and missing credentials with a text', async () => {
      const fields = await registerPlayer(t.client());
      const wrong = await t
        .client()
        .put('/api/login', { form: { username: fields.username, password: 'wrong!!1' } });
      expect([wrong.statusCode, wrong.body]).toEqual([401, 'Incorrect username or password']);
      const unknown = await t
        .client()
        .put('/api/login', { form: { username: 'nobody_here', password: 'whatever' } });
      expect([unknown.statusCode, unknown.body]).toEqual([401, 'Incorrect username or password']);
      const missing = await t.client().put('/api/login', { form: { username: fields.username } });
      expect([missing.statusCode, missing.body]).toEqual([400, 'Username and password are required']);
    });

    it('says which field is too long, and which bodies a login takes, when both fields were given', async () => {
      const logIn = (body: Parameters<TestClient['put']>[1]) => t.client().put('/api/login', body);
      const longPassword = await logIn({ form: { username: 'someone', password: 'x'.repeat(100_000) } });
      expect([longPassword.statusCode, longPassword.body]).toEqual([
        400,
        accountMessages.loginPasswordTooLong,
      ]);
      expect(accountMessages.loginPasswordTooLong).toBe(
        'Password is too long: passwords are 6-20 characters',
      );
      const longName = await logIn({ json: { username: 'u'.repeat(101), password: 'secret!42' } });
      expect([longName.statusCode, longName.body]).toEqual([400, accountMessages.loginUsernameTooLong]);
      expect(accountMessages.loginUsernameTooLong).toBe(
        'Username is too long: usernames are 6-20 characters',
      );
      // Up to 100 characters, a name no account has is a wrong one, as before.
      const wrong = await logIn({ form: { username: 'u'.repeat(100), password: 'p'.repeat(100) } });
      expect([wrong.statusCode, wrong.body]).toEqual([401, accountMessages.badCredentials]);
      const plain = await logIn({
        raw: { body: 'username=someone&password=secret', contentType: 'text/plain' },
      });
      expect([plain.statusCode, plain.body]).toEqual([
        415,
        'Send the form as multipart/form-data, application/x-www-form-urlencoded or application/json',
      ]);
    });

    it('locks an account after 5 failures for 15 minutes, then lets it in again', async () => {
      const fields = await registerPlayer(t.client());
      const client = t.client();
      for (let i = 0; i < 5; i++) {
        const res = await client.put('/api/login', {
          form: { username: fields.username, password: 'wrong!!1' },
        });
        expect(res.statusCode).toBe(401);
      }
      const locked = await client.put('/api/login', {
        form: { username: fields.username, password: fields.password },
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.body).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
      // The window passes.
      await t.ctx.db.query(
        `UPDATE login_failures SET at = at - interval '16 minutes' WHERE username_key = lower($1)`,
        [fields.username],
      );
      const again = await client.put('/api/login', {
        form: { username: fields.username, password: fields.password },
      });
      expect(again.statusCode).toBe(200);
    });

    it('limits failures per address across accounts', async () => {
      const client = t.client();
      await t.ctx.db.query('DELETE FROM login_failures');
      let last = 0;
      for (let i = 0; i < 21; i++) {
        const res = await client.put('/api/login', {
          form: { username: `ghost_${i}_user`, password: 'wrong!!1' },
        });
        last = res.statusCode;
      }
      expect(last).toBe(429);
      await t.ctx.db.query('DELETE FROM login_failures');
    });
  });
});
