import { accountMessages, textMessages } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGame, registerPlayer, registrationFields } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/test-app';
import { dbKinds } from '../../test/test-db';

/**
 * The audit's NUL bytes (each was a 500: PostgreSQL text cannot hold one). The contract's text
 * schemas refuse them now, with the field's own sentence or one that names the problem.
 */
describe.each(dbKinds)('text with NUL and control characters, route by route (%s)', (kind) => {
  let t: TestApp;
  let player: TestClient;
  let uuid: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    uuid = (await makeGame(t.ctx.db, t.clock.now)).uuid;
    player = t.client();
    await registerPlayer(player);
  });
  afterAll(() => t?.close());

  const answer = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => [
    res.statusCode,
    res.body,
    res.headers['content-type'],
  ];
  const text = 'text/plain; charset=utf-8';

  it('GET /api/community_search?c= with NUL', async () => {
    expect(answer(await t.client().get('/api/community_search?c=%00'))).toEqual([
      400,
      'Unknown category',
      text,
    ]);
    expect(answer(await t.client().get('/api/community_search?c=Sp%00rts'))).toEqual([
      400,
      'Unknown category',
      text,
    ]);
  });

  it('GET /api/question_stats?geo= and ?community= with NUL or another control character', async () => {
    for (const query of [
      'geo=%00',
      'geo=Greater%20Houston%00',
      'community=%00',
      'community=club%0A',
      'age=%1B',
    ])
      expect([query, ...answer(await player.get(`/api/question_stats/${uuid}?${query}`))]).toEqual([
        query,
        400,
        textMessages.control,
        text,
      ]);
  });

  it('PUT /api/login with NUL in the username or the password', async () => {
    const nulName = await t
      .client()
      .put('/api/login', { form: { username: 'demo_\u0000player', password: 'x' } });
    expect(answer(nulName)).toEqual([400, accountMessages.usernameInvalid, text]);
    const json = await t.client().put('/api/login', { json: { username: '\u0000', password: 'hunch123' } });
    expect(answer(json)).toEqual([400, accountMessages.usernameInvalid, text]);
    const nulPassword = await t
      .client()
      .put('/api/login', { form: { username: 'someone', password: 'a\u0000' } });
    expect(answer(nulPassword)).toEqual([400, accountMessages.passwordInvalid, text]);
  });

  it('refuses text-direction controls in the field’s own words, and takes right-to-left text', async () => {
    const gender = await t
      .client()
      .post('/api/register', { form: registrationFields({ gender: '\u202eelam' }) });
    expect(answer(gender)).toEqual([400, accountMessages.genderDirection, text]);
    const search = await t.client().get(`/api/community_search?q=${encodeURIComponent('club\u2066')}`);
    expect(answer(search)).toEqual([
      400,
      'Search text must not contain invisible text-direction characters (such as a right-to-left override)',
      text,
    ]);
    const stats = await player.get(`/api/question_stats/${uuid}?geo=${encodeURIComponent('\u202dHouston')}`);
    expect(answer(stats)).toEqual([400, textMessages.direction, text]);
    const hebrew = await t
      .client()
      .post('/api/register', { form: registrationFields({ gender: 'אישה\u200f' }) });
    expect(hebrew.statusCode, hebrew.body).toBe(201);
    const arabic = await t.client().get(`/api/community_search?q=${encodeURIComponent('نادي')}`);
    expect(arabic.statusCode).toBe(200);
  });

  it('POST /api/register with NUL in the gender, and no account made', async () => {
    const fields = registrationFields({ gender: 'wo\u0000man' });
    const res = await t.client().post('/api/register', { form: fields });
    expect(answer(res)).toEqual([400, accountMessages.genderUnreadable, text]);
    const tab = await t.client().post('/api/register', { form: registrationFields({ gender: 'a\tb' }) });
    expect(answer(tab)).toEqual([400, accountMessages.genderUnreadable, text]);
    const made = await t.ctx.db.query('SELECT 1 FROM users WHERE username = $1', [fields.username]);
    expect(made.rows).toEqual([]);
    // What a person types still works: spaces around it, up to 20 characters.
    const ok = await t.client().post('/api/register', {
      form: registrationFields({ gender: '  Non-binary  ' }),
    });
    expect(ok.statusCode).toBe(201);
  });
});
