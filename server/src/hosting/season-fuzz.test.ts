import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { hostileString, hostileValue } from '../test/hostile-inputs';
import { adminName, postSeason, seasonDoc, signUp } from '../test/hosting-factories';
import { startTestApp, type TestApp, type TestClient } from '../test/test-app';
import { dbKinds } from '../test/test-db';

/**
 * Throws generated hostile season documents at the import, as an admin (so every one gets past
 * the role checks to the parser and the checks behind it): a valid season with its structure
 * mutated (fields removed, replaced by hostile values, duplicated, renamed, wrapped), sent as YAML
 * or JSON, sometimes with the text itself cut or spliced. No answer may be a 5xx.
 */

const RUNS = Number(process.env.SEASON_FUZZ_RUNS ?? 1_000);
const EXPECTED = new Set([200, 400, 403, 409, 413]);

type Json = unknown;
type Path = (string | number)[];

/** Every path into the document, containers included. */
function pathsOf(value: Json, at: Path = []): Path[] {
  const paths: Path[] = [at];
  if (Array.isArray(value)) for (const [i, v] of value.entries()) paths.push(...pathsOf(v, [...at, i]));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths.push(...pathsOf(v, [...at, k]));
  return paths;
}

type Op =
  | { kind: 'remove' }
  | { kind: 'replace'; value: Json }
  | { kind: 'rename'; key: string }
  | { kind: 'add'; key: string; value: Json }
  | { kind: 'duplicate' }
  | { kind: 'wrap' }
  | { kind: 'number'; value: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: 'remove' as const }),
  { weight: 3, arbitrary: hostileValue.map((value) => ({ kind: 'replace' as const, value })) },
  hostileString.map((key) => ({ kind: 'rename' as const, key })),
  fc
    .tuple(
      fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'kind', 'outcome')),
      hostileValue,
    )
    .map(([key, value]) => ({ kind: 'add' as const, key, value })),
  fc.constant({ kind: 'duplicate' as const }),
  fc.constant({ kind: 'wrap' as const }),
  fc
    .oneof(fc.double(), fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, 121, 4))
    .map((value) => ({ kind: 'number' as const, value })),
);

function mutate(doc: Json, picks: number[], ops: Op[]): Json {
  const root = { doc: structuredClone(doc) } as Record<string, Json>;
  for (const [n, o] of ops.entries()) {
    const paths = pathsOf(root.doc, ['doc']);
    const target = paths[picks[n]! % paths.length]!;
    const parent = target.slice(0, -1).reduce<Json>((v, k) => (v as Record<string, Json>)[k], root) as Record<
      string | number,
      Json
    >;
    const key = target[target.length - 1]!;
    const current = parent[key];
    switch (o.kind) {
      case 'remove':
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
        break;
      case 'replace':
        parent[key] = o.value;
        break;
      case 'number':
        parent[key] = o.value;
        break;
      case 'rename':
        if (!Array.isArray(parent)) {
          delete parent[key];
          Object.defineProperty(parent, o.key, {
            value: current,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        break;
      case 'add':
        if (current && typeof current === 'object' && !Array.isArray(current))
          Object.defineProperty(current, o.key, {
            value: o.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else if (Array.isArray(current)) current.push(o.value);
        break;
      case 'duplicate':
        if (Array.isArray(current)) current.push(structuredClone(current[0]));
        else if (Array.isArray(parent)) parent.push(structuredClone(current));
        break;
      case 'wrap':
        parent[key] = [current];
        break;
    }
  }
  return root.doc;
}

/** The text as sent: whole, cut short, or with a few characters spliced in. */
const textEdit = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'none' as const }) },
  fc.nat().map((at) => ({ kind: 'cut' as const, at })),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom(
        ':',
        '- ',
        '{',
        '[',
        '"',
        "'",
        '&a ',
        '*a',
        '!!binary ',
        '\t',
        '\n  ',
        '---\n',
        '\u0000',
      ),
    )
    .map(([at, text]) => ({ kind: 'splice' as const, at, text })),
);

function serialise(doc: Json, format: 'yaml' | 'json'): string {
  try {
    // Either may give undefined for a document mutated down to nothing.
    return (format === 'json' ? JSON.stringify(doc) : stringify(doc)) ?? '';
  } catch {
    return String(doc);
  }
}

describe.each(dbKinds)('season import under hostile documents (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const name = adminName();
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { adminUsers: [name] } });
    admin = t.client();
    await signUp(admin, name);
  });
  afterAll(async () => {
    console.log(`season fuzz (${kind}): ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
    await t?.close();
  });

  it(`answers ${RUNS} mutated seasons, in YAML and JSON, without a 5xx`, async () => {
    const base = seasonDoc(new Date(t.clock.now.getTime() + 30 * 86_400_000), { endpoint: 'fuzzed-club' });
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.array(op, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('yaml' as const, 'json' as const),
        textEdit,
        async (picks, ops, format, edit) => {
          const doc = mutate(base, picks, ops.slice(0, picks.length));
          let text = serialise(doc, format);
          if (edit.kind === 'cut') text = text.slice(0, edit.at % (text.length + 1));
          if (edit.kind === 'splice') {
            const at = edit.at % (text.length + 1);
            text = text.slice(0, at) + edit.text + text.slice(at);
          }
          const res = await postSeason(admin, text, { format });
          sent++;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (!EXPECTED.has(res.statusCode))
            throw new Error(
              `${res.statusCode} for ${format}:\n${text.slice(0, 2000)}\n→ ${res.body.slice(0, 500)}`,
            );
          if (res.statusCode === 400) {
            const body = res.json<{ errors: { path: string; message: string }[] }>();
            if (
              !Array.isArray(body.errors) ||
              body.errors.length === 0 ||
              body.errors.some((e) => !e.message)
            )
              throw new Error(`400 without problems: ${res.body}`);
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    // Some of them were still valid seasons: the import itself was reached, not only the parser.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 4);
  }, 600_000);

  it('still imports and exports normally afterwards', async () => {
    const doc = seasonDoc(new Date(t.clock.now.getTime() + 60 * 86_400_000));
    expect((await postSeason(admin, doc)).statusCode).toBe(200);
    expect((await admin.get(`/api/host/export/${doc.community.endpoint}`)).statusCode).toBe(200);
  });
});
