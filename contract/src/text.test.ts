import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { accountMessages, genderSchema, usernameSchema } from './accounts';
import { communitySearchQuerySchema } from './communities';
import { gameInputSchema, questionInputSchema } from './hosting';
import { httpRoutes } from './http-routes';
import { type ClientEventDef, clientEventTables, gameHandshakeQuerySchema } from './live';
import { metricsRoutes } from './metrics-routes';
import type { RouteDef } from './route-def';
import { freeText, plainText, textMessages } from './text';

const refusal = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? null : r.error.issues[0]?.message;
};

describe('plainText: one line a person types', () => {
  const name = plainText(20);
  it.each([
    ['Ada', null],
    ['Ｄｅｍｏ 💥 émilie', null],
    ['', null],
    ['a\u0000b', textMessages.control],
    ['\u0000', textMessages.control],
    ['tab\there', textMessages.control],
    ['line\nbreak', textMessages.control],
    ['\r', textMessages.control],
    ['\u001b[31m', textMessages.control],
    ['del\u007f', textMessages.control],
    ['c1\u0085', textMessages.control],
  ])('%j -> %s', (value, expected) => expect(refusal(name, value)).toBe(expected));

  it('keeps zod’s wording for a text too long unless the field has its own sentence', () => {
    // zod's wording lets the route answer with its own text ('Unknown statistics filter').
    expect(refusal(name, 'x'.repeat(21))).toMatch(/Too big/);
    expect(refusal(plainText(3, 'Unknown category'), 'four')).toBe('Unknown category');
    expect(refusal(plainText(3, 'Unknown category'), 'a\u0000')).toBe('Unknown category');
    expect(refusal(plainText(3, { invalid: 'No tabs' }), '\t')).toBe('No tabs');
    expect(refusal(plainText(3, { tooLong: 'Three at most' }), 'four')).toBe('Three at most');
  });

  it('trims first when asked', () => {
    expect(plainText(3, undefined, { trim: true }).parse('  abc  ')).toBe('abc');
    expect(refusal(plainText(3), '  abc  ')).toMatch(/Too big/);
  });

  it('refuses what is not text', () => {
    for (const v of [1, null, undefined, ['a'], { a: 1 }]) expect(refusal(name, v)).not.toBeNull();
  });
});

/** The nine invisible characters that turn text around: embeddings, overrides, isolates. */
const directionControls = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].map((c) =>
  String.fromCodePoint(c),
);
/** Right-to-left text as people write it: Hebrew and Arabic letters, the marks U+200E and U+200F. */
const rightToLeft = [
  'שלום עולם',
  'مرحبا بالعالم',
  'Hunch \u200fשלום\u200f!',
  'x\u200ey',
  'עברית 123 English',
];

describe('text-direction controls: refused, right-to-left text kept', () => {
  it.each(directionControls.map((c) => [`U+${c.codePointAt(0)?.toString(16).toUpperCase()}`, c]))(
    '%s is refused by plainText and freeText, in the field’s own words',
    (_name, c) => {
      for (const value of [`${c}evil`, `game${c}`, `a${c}b${c}`]) {
        expect(refusal(plainText(20), value)).toBe(textMessages.direction);
        expect(refusal(freeText(20), value)).toBe(textMessages.direction);
        // A field's one sentence, or its `invalid` one, stands for this refusal too; `direction` words it apart.
        expect(refusal(plainText(20, 'Unknown category'), value)).toBe('Unknown category');
        expect(refusal(plainText(20, { invalid: 'Invalid username' }), value)).toBe('Invalid username');
        expect(refusal(plainText(20, { invalid: 'No tabs', direction: 'No turns' }), value)).toBe('No turns');
        expect(refusal(plainText(20, { invalid: 'No tabs', direction: 'No turns' }), 'a\tb')).toBe('No tabs');
      }
    },
  );

  it.each(rightToLeft)('%j is accepted', (value) => {
    expect(refusal(plainText(40), value)).toBeNull();
    expect(refusal(freeText(40), value)).toBeNull();
  });

  it('words the gender and the name search apart from their control-character sentences', () => {
    const turned = '\u202eelam';
    expect(refusal(genderSchema, turned)).toBe(accountMessages.genderDirection);
    expect(refusal(genderSchema, 'a\tb')).toBe(accountMessages.genderUnreadable);
    expect(refusal(communitySearchQuerySchema, { q: turned })).toMatch(
      /^Search text must not contain invisible/,
    );
    expect(refusal(usernameSchema, `\u2066abcdef\u2069`)).toBe(accountMessages.usernameInvalid);
  });
});

describe('freeText: text written at length', () => {
  const body = freeText(20);
  it.each([
    ['two\nlines', null],
    ['tab\there\r\n', null],
    ['a\u0000b', textMessages.nul],
  ])('%j -> %s', (value, expected) => expect(refusal(body, value)).toBe(expected));
});

/**
 * Every text a client can send, found by walking the contract's input schemas. A string schema is
 * tried with NUL in several lengths and places (so a length or format rule of its own does not hide
 * an accepted NUL); `.catch` may turn a refusal into its fallback, so what is checked is that no
 * NUL comes out.
 */
function stringsIn(schema: z.ZodType, path: string, out: [string, z.ZodType][]): void {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const walk = (child: unknown, sub: string) => stringsIn(child as z.ZodType, sub, out);
  switch (def.type) {
    case 'string':
    case 'catch':
      out.push([path, schema]);
      return;
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) walk(v, `${path}.${k}`);
      return;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      walk(def.innerType, path);
      return;
    case 'pipe':
      walk(def.in, path);
      walk(def.out, path);
      return;
    case 'array':
      walk(def.element, `${path}[]`);
      return;
    case 'union':
      for (const option of def.options as unknown[]) walk(option, path);
      return;
    case 'record':
      walk(def.keyType, `${path}{key}`);
      walk(def.valueType, `${path}{}`);
      return;
    default:
      // Numbers, booleans, enums, literals, dates: no text gets through them.
      return;
  }
}

const probes = [1, 2, 3, 5, 6, 8, 10, 20, 36, 64, 100].flatMap((n) => [
  '\u0000'.repeat(n),
  `${'a'.repeat(n - 1)}\u0000`,
  `\u0000${'1'.repeat(n - 1)}`,
]);

const letsNulThrough = (schema: z.ZodType) =>
  probes.filter((p) => {
    const r = schema.safeParse(p);
    return r.success && JSON.stringify(r.data).includes('\\u0000');
  });

describe('every text a client sends, in every route and socket event', () => {
  const inputs: [string, z.ZodType][] = [];
  for (const [name, def] of Object.entries({ ...httpRoutes, ...metricsRoutes }) as [string, RouteDef][]) {
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = def[part];
      if (schema) inputs.push([`${name}.${part}`, schema]);
    }
  }
  for (const { namespace, events } of clientEventTables) {
    for (const [event, def] of Object.entries(events) as [string, ClientEventDef][]) {
      def.args.forEach((arg, i) => {
        inputs.push([`${namespace} ${event}[${i}]`, arg]);
      });
    }
  }
  inputs.push(['/game/{uuid} handshake query', gameHandshakeQuerySchema]);
  inputs.push(['hosting game', gameInputSchema], ['hosting question', questionInputSchema]);

  const strings: [string, z.ZodType][] = [];
  for (const [name, schema] of inputs) stringsIn(schema, name, strings);

  it('finds the texts (the walk reaches them)', () => {
    const paths = strings.map(([p]) => p);
    for (const p of ['login.body.username', 'questionStats.query.geo', 'communitySearch.query.c'])
      expect(paths).toContain(p);
    expect(paths).toContain('register.body.gender');
    expect(paths).toContain('hosting game.questions[].choices[].text');
    expect(strings.length).toBeGreaterThan(30);
  });

  it('refuses NUL in every one of them', () => {
    const leaks = strings
      .map(([path, schema]) => [path, letsNulThrough(schema).length] as const)
      .filter(([, n]) => n > 0);
    expect(leaks).toEqual([]);
  });
});
