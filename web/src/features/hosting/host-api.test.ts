import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionChanged } from '../../api/client';
import { importSeason } from './host-api';

// The browser's fetch is replaced by a scripted server that records what the client sends.
interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
}
let sent: Sent[] = [];

function serve(reply: () => Response): void {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
    });
    if (url === '/api/csrf') return Response.json({ token: 'token-1' });
    return reply();
  });
}

const season = {
  community: { endpoint: 'runners', name: 'Runners', description: '', listed: true, categories: [] },
  series: [],
};
const counts = { communities: 0, series: 0, games: 0, questions: 0 };

beforeEach(() => {
  sent = [];
  sessionChanged();
});
afterEach(() => vi.unstubAllGlobals());

describe('season import from the console', () => {
  it('sends the document as JSON, with the CSRF token, to the dry run', async () => {
    serve(() =>
      Response.json({
        created: counts,
        updated: counts,
        unchanged: { ...counts, communities: 1 },
        games: [],
        dry_run: true,
      }),
    );
    const outcome = await importSeason(season, true);
    expect(outcome).toMatchObject({ ok: true, result: { dry_run: true } });
    const post = sent.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/host/import?dry_run=1');
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.headers['x-csrf-token']).toBe('token-1');
    expect(JSON.parse(await (post.body as Blob).text())).toEqual(season);
  });

  it('a file goes in the form field season; a 400 with problems is an answer, not a failure', async () => {
    const problems = [{ path: 'series.0.games.2.questions.1.slider.max', message: 'max must be above min' }];
    serve(() => Response.json({ errors: problems }, { status: 400 }));
    const file = new File(['community: {}'], 'season.yaml', { type: 'application/yaml' });
    // From a community's console page: the server refuses a file for another community.
    expect(await importSeason(file, false, undefined, 'runners')).toEqual({ ok: false, problems });
    const post = sent.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/host/import?dry_run=0&community=runners');
    expect((post.body as FormData).get('season')).toBeInstanceOf(File);
    expect(post.headers['content-type']).toBeUndefined();
  });

  it('another refusal throws with the server’s sentence', async () => {
    serve(() => new Response('Only an admin may create a community', { status: 403 }));
    await expect(importSeason(season, false)).rejects.toThrow('Only an admin may create a community');
  });
});
