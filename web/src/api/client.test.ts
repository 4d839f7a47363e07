import { accountMessages, httpRoutes } from '@hunch/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeGame } from '../test/factories';
import { ApiError, callApi, sendApi, sessionChanged } from './client';

// The browser's fetch is the one thing replaced here: a scripted server that records each request,
// so the tests see the addresses, headers and bodies the client builds from the route table.

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
}

type Reply = (req: Sent) => Response;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const text = (body: string, status: number) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

let sent: Sent[] = [];
let tokens = 0;

/** Answers the csrf route with a new token each time, and every other call with `reply`. */
function serve(reply: Reply): void {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const req: Sent = {
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
    };
    sent.push(req);
    if (url === '/api/csrf') return json({ token: `token-${++tokens}` });
    return reply(req);
  });
}

beforeEach(() => {
  sent = [];
  tokens = 0;
  sessionChanged();
});
afterEach(() => vi.unstubAllGlobals());

describe('api client: addresses and answers from the route table', () => {
  it('fills the path parameters, encoded, and parses the answer with the route’s schema', async () => {
    const game = makeGame();
    serve(() => json(game));
    await expect(callApi(httpRoutes.game, { params: { uuid: game.uuid } })).resolves.toEqual(game);
    serve(() => json({ s: 1, a: 1, r: null, p: null, games: 0, players: 0 }));
    await callApi(httpRoutes.communityRank, { params: { community: 'a/b' }, query: { u: 'ann & bob' } });
    expect(sent.map((r) => [r.method, r.url])).toEqual([
      ['GET', `/api/game/${game.uuid}`],
      ['GET', '/api/community_rank/a%2Fb?u=ann+%26+bob'],
    ]);
  });

  it('leaves empty query values out of the address', async () => {
    serve(() => json({ questions: [], stats: [] }));
    await callApi(httpRoutes.questionStats, {
      params: { uuid: 'u-1' },
      query: { age: '', geo: 'Texas', community: '' },
    });
    expect(sent[0]?.url).toBe('/api/question_stats/u-1?geo=Texas');
  });

  it('refuses an answer that does not match the route’s schema', async () => {
    serve(() => json({ name: 'not a game' }));
    await expect(callApi(httpRoutes.game, { params: { uuid: 'u-1' } })).rejects.toThrow();
  });

  it('reads a text answer when the route’s success is text', async () => {
    serve(() => text('Logged out', 200));
    await expect(callApi(httpRoutes.logout)).resolves.toBe('Logged out');
  });

  it('turns an error answer into an ApiError with the server’s words', async () => {
    serve(() => text('No such game\n', 404));
    const err = await callApi(httpRoutes.game, { params: { uuid: 'u-1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, message: 'No such game' });
  });

  it('hands the raw answer back for calls whose refusals are verdicts', async () => {
    serve(() => text(accountMessages.usernameTaken, 409));
    const res = await sendApi(httpRoutes.checkRegistration, {
      params: { field: 'username' },
      query: { check: 'ann_smith' },
    });
    expect(res.status).toBe(409);
    expect(sent[0]?.url).toBe('/api/check_registration/username?check=ann_smith');
  });
});

describe('api client: bodies and the security token', () => {
  it('sends a JSON body with the token fetched once for every write', async () => {
    serve(() => json({ choice_i: 1, number_answer: null }));
    const answer = { question_i: 0, choice_i: 1, number_answer: null };
    const params = { series: 'weekly', uuid: 'u-1' };
    await callApi(httpRoutes.answer, { params, body: answer });
    await callApi(httpRoutes.answer, { params, body: { ...answer, subcommunity: 'club' } });
    const writes = sent.filter((r) => r.method === 'PUT');
    expect(writes.map((r) => r.url)).toEqual(['/api/answer/weekly/u-1', '/api/answer/weekly/u-1']);
    expect(writes.map((r) => r.headers['x-csrf-token'])).toEqual(['token-1', 'token-1']);
    expect(writes[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(writes[1]?.body))).toEqual({ ...answer, subcommunity: 'club' });
    expect(sent.filter((r) => r.url === '/api/csrf')).toHaveLength(1);
  });

  it('sends no token with a read', async () => {
    serve(() => json([]));
    await callApi(httpRoutes.playGames);
    expect(sent.map((r) => r.url)).toEqual(['/api/play_games']);
    expect(sent[0]?.headers['x-csrf-token']).toBeUndefined();
  });

  it('sends a form as it is, leaving the content type to the browser', async () => {
    serve(() => text('Incorrect username or password', 401));
    const body = new FormData();
    body.set('username', 'ann_smith');
    await expect(callApi(httpRoutes.login, { body })).rejects.toMatchObject({ status: 401 });
    const login = sent.find((r) => r.url === '/api/login');
    expect(login?.body).toBe(body);
    expect(login?.headers['content-type']).toBeUndefined();
  });

  it('fetches a new token and tries once more when the token was refused', async () => {
    let calls = 0;
    serve(() => (++calls === 1 ? text(accountMessages.csrfRefused, 403) : json([])));
    await expect(callApi(httpRoutes.joinCommunity, { params: { id: 'book-club' } })).resolves.toEqual([]);
    const writes = sent.filter((r) => r.method === 'PUT');
    expect(writes.map((r) => r.headers['x-csrf-token'])).toEqual(['token-1', 'token-2']);
  });

  it('does not retry any other refusal', async () => {
    serve(() => text('Submissions are closed for this game', 403));
    const res = await sendApi(httpRoutes.answer, {
      params: { series: 'weekly', uuid: 'u-1' },
      body: { question_i: 0, choice_i: 0, number_answer: null },
    });
    expect(res.status).toBe(403);
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });
});
