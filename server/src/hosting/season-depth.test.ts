import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSeason, seasonDoc, startAdminApp } from '../test/hosting-factories';
import type { TestApp, TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';
import { SEASON_MAX_DEPTH } from './season-text';

// A season file of a few kilobytes of brackets once ended the server: the YAML reader recursed to
// the end of the stack, where V8 failed compiling a regular expression as a fatal error.

const TOO_DEEP = /^The document could not be read: it is nested too deeply \(more than 32 levels/;

describe.each(dbKinds)('season files nested too deeply (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const doc = seasonDoc(new Date(Date.now() + 10 * 86_400_000));
  const endpoint = doc.community.endpoint;
  beforeAll(async () => {
    ({ t, admin } = await startAdminApp(kind));
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  /** `levels` of nested sequences under an unknown field of the community's own document. */
  const nested = (levels: number) => ({
    json: `{"community": {"endpoint": "${endpoint}"}, "x": ${'['.repeat(levels)}${']'.repeat(levels)}}`,
    yamlFlow: `community: {endpoint: ${endpoint}}\nx: ${'['.repeat(levels)}${']'.repeat(levels)}\n`,
    yamlBlock: `community: {endpoint: ${endpoint}}\nx:\n  ${'- '.repeat(levels)}1\n`,
  });

  it('refuses each at once with a sentence, as a check and as an import, and goes on serving', async () => {
    for (const levels of [SEASON_MAX_DEPTH + 1, 3_000, 100_000]) {
      const files = nested(levels);
      for (const [name, text] of Object.entries(files)) {
        for (const dryRun of [true, false]) {
          const res = await postSeason(admin, text, { format: name === 'json' ? 'json' : 'yaml', dryRun });
          expect([name, levels, res.statusCode]).toEqual([name, levels, 400]);
          const { errors } = res.json();
          expect(errors).toHaveLength(1);
          expect(errors[0].message).toMatch(TOO_DEEP);
        }
      }
    }
    // The server still answers, and the community is as it was.
    const exported = await admin.get(`/api/host/export/${endpoint}`);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('\nx:');
  });

  it('reads a file nested as deep as allowed, and names its real problem', async () => {
    // The root map is one level, and the sequences under x the others.
    const files = nested(SEASON_MAX_DEPTH - 1);
    for (const [name, text] of Object.entries(files)) {
      const res = await postSeason(admin, text, { format: name === 'json' ? 'json' : 'yaml', dryRun: true });
      expect([name, res.statusCode]).toEqual([name, 400]);
      const messages = res.json().errors.map((e: { message: string }) => e.message);
      expect(messages).toContain('Unknown field x');
      expect(messages.join('\n')).not.toMatch(TOO_DEEP);
    }
  });
});
