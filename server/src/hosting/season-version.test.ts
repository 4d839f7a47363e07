import type { SeasonInput } from '@hunch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSeason, seasonDoc, signUp, startAdminApp } from '../test/hosting-factories';
import type { TestApp, TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { CHANGED_SINCE } from './season-import';

// Two editors open on one community (two tabs, two hosts): each save sends the whole document, so
// without a version check the later save silently undid the earlier one (decision 034).

const DAY = 86_400_000;

describe.each(dbKinds)('season versions: an import saves over the version it names (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, admin } = await startAdminApp(kind));
  });
  afterAll(() => t.close());

  async function exported(endpoint: string, accept = 'application/json') {
    const res = await admin.request('GET', `/api/host/export/${endpoint}`, {}, { headers: { accept } });
    expect(res.statusCode, res.body).toBe(200);
    return { version: String(res.headers.etag), doc: res.body };
  }

  async function created(): Promise<SeasonInput> {
    const doc = seasonDoc(new Date(t.clock.now.getTime() + 10 * DAY));
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    return doc;
  }

  it('gives the export an ETag: the same in YAML and JSON, the same until the content changes', async () => {
    const doc = await created();
    const endpoint = doc.community.endpoint;
    const first = await exported(endpoint);
    expect(first.version).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await exported(endpoint, 'application/yaml')).version).toBe(first.version);
    expect((await exported(endpoint)).version).toBe(first.version);

    // Hosts and roles are not part of the document: granting one leaves its version as it was.
    const other = await signUp(t.client());
    expect((await admin.put(`/api/host/hosts/${endpoint}/${other}`)).statusCode).toBe(200);
    expect((await exported(endpoint)).version).toBe(first.version);

    const renamed = { ...doc, community: { ...doc.community, name: 'Renamed once' } };
    expect((await postSeason(admin, renamed)).statusCode).toBe(200);
    expect((await exported(endpoint)).version).not.toBe(first.version);
  });

  it('refuses with 412 a save over a version that is no longer current, and writes nothing', async () => {
    const doc = await created();
    const endpoint = doc.community.endpoint;
    const opened = await exported(endpoint);

    // The first editor saves over what it opened: accepted.
    const first = { ...doc, community: { ...doc.community, description: 'From the first tab' } };
    const saved = await postSeason(admin, first, { format: 'json', ifMatch: opened.version });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await exported(endpoint);

    // The second, opened before that save, would undo it: refused, for its check and its save.
    const second = { ...doc, community: { ...doc.community, name: 'From the second tab' } };
    for (const dryRun of [true, false]) {
      const stale = await postSeason(admin, second, { format: 'json', ifMatch: opened.version, dryRun });
      expect(stale.statusCode).toBe(412);
      expect(stale.body).toBe(CHANGED_SINCE);
    }
    expect(await exported(endpoint)).toEqual(after);
    const community = (await t.client().get(`/api/community/${endpoint}`)).json();
    expect(community).toMatchObject({ name: doc.community.name, description: 'From the first tab' });

    // Over the current version, the same document saves.
    const current = await postSeason(admin, second, { format: 'json', ifMatch: after.version });
    expect(current.statusCode, current.body).toBe(200);
    expect((await t.client().get(`/api/community/${endpoint}`)).json().name).toBe('From the second tab');
  });

  it('lets one of two saves over the same version through when they come at once: the check is under the lock', async () => {
    const doc = await created();
    const opened = await exported(doc.community.endpoint);
    const named = (name: string) => ({ ...doc, community: { ...doc.community, name } });
    const answers = await Promise.all(
      ['Tab one', 'Tab two'].map((name) =>
        postSeason(admin, named(name), { format: 'json', ifMatch: opened.version }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 412]);
    const winner = answers.findIndex((r) => r.statusCode === 200) === 0 ? 'Tab one' : 'Tab two';
    expect((await t.client().get(`/api/community/${doc.community.endpoint}`)).json().name).toBe(winner);
  });

  it('takes * for any version of a community that exists, and refuses a version of one that does not', async () => {
    const doc = await created();
    expect((await postSeason(admin, doc, { ifMatch: '*' })).statusCode).toBe(200);

    const fresh = seasonDoc(new Date(t.clock.now.getTime() + 10 * DAY));
    for (const ifMatch of ['*', (await exported(doc.community.endpoint)).version]) {
      const res = await postSeason(admin, fresh, { ifMatch });
      expect(res.statusCode).toBe(412);
      expect((await admin.get(`/api/host/export/${fresh.community.endpoint}`)).statusCode).toBe(404);
    }
    // Without If-Match, creating it is an import like any other.
    expect((await postSeason(admin, fresh)).statusCode).toBe(200);
  });

  it('creates only with If-None-Match: *, and refuses to overwrite a community that exists', async () => {
    const fresh = seasonDoc(new Date(t.clock.now.getTime() + 10 * DAY));
    const create = (doc: SeasonInput) =>
      admin.request('POST', '/api/host/import', { json: doc }, { headers: { 'if-none-match': '*' } });
    expect((await create(fresh)).statusCode).toBe(200);
    // An admin's New community with an endpoint that is taken: the community stays as it was.
    const taken = { ...fresh, community: { ...fresh.community, name: 'Someone else’s club' }, series: [] };
    const refused = await create(taken);
    expect(refused.statusCode).toBe(412);
    expect(refused.body).toBe(
      `A community with the endpoint ${fresh.community.endpoint} exists already: nothing was saved. Choose another endpoint.`,
    );
    expect((await t.client().get(`/api/community/${fresh.community.endpoint}`)).json().name).toBe(
      fresh.community.name,
    );
    const odd = await admin.request(
      'POST',
      '/api/host/import',
      { json: fresh },
      { headers: { 'if-none-match': '"abc"' } },
    );
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toMatch(/^If-None-Match takes only \*/);
  });

  it('takes a weak tag as its strong one, and a list when one of its versions is current', async () => {
    const doc = await created();
    const endpoint = doc.community.endpoint;
    const save = async (ifMatch: string, description: string) =>
      postSeason(admin, { ...doc, community: { ...doc.community, description } }, { ifMatch });
    // A proxy that compressed the export may have weakened its ETag (W/"…"): still this version.
    const weak = await save(`W/${(await exported(endpoint)).version}`, 'Through a proxy');
    expect(weak.statusCode, weak.body).toBe(200);
    const stale = '"an-older-version"';
    const listed = await save(`${stale}, W/${(await exported(endpoint)).version}`, 'One of a list');
    expect(listed.statusCode, listed.body).toBe(200);
    const before = await exported(endpoint);
    const none = await save(`${stale}, W/"another-one"`, 'Over neither');
    expect(none.statusCode).toBe(412);
    expect(none.body).toBe(CHANGED_SINCE);
    expect((await exported(endpoint)).doc).toBe(before.doc);
  });

  it('answers a malformed If-Match with 400 and a sentence, before reading the document', async () => {
    const doc = await created();
    const many = Array.from({ length: 21 }, (_, k) => `"v${k}"`).join(', ');
    for (const ifMatch of [
      'abc',
      'W/abc',
      'w/"abc"',
      '"a b"',
      '""',
      '"abc",',
      '"abc" "def"',
      many,
      `"${'a'.repeat(101)}"`,
    ]) {
      const res = await postSeason(admin, doc, { ifMatch });
      expect(res.statusCode, ifMatch).toBe(400);
      expect(res.body).toBe('If-Match must be the ETag of the community’s export, or *');
    }
    const broken = await postSeason(admin, 'community: [', { ifMatch: 'nonsense' });
    expect(broken.statusCode).toBe(400);
    expect(broken.body).toMatch(/^If-Match/);
  });
});
