import fc from 'fast-check';

/**
 * Generators of what a hostile client sends: the fuzz tests throw these at every route and socket
 * event of the contract. Each mixes plausible values (so handlers get past the first check) with
 * NUL and control characters, huge strings, wrong types, path tricks and prototype keys.
 */

const tricks = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  '\r\n\r\n',
  '../../etc/passwd',
  '..%2f..%2f',
  '%00',
  '%',
  '%zz',
  '?',
  '#',
  '/',
  '//',
  '\\',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  'true',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '\uD800',
  '\uFEFF',
  '💥',
  'Ｄｅｍｏ',
] as const;

/** A string a person would never type but a client can send. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...tricks) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\u0007', '\u001b', '\u0085', '\u2028'))
      .map(([s, c]) => `${s}${c}${s}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
);

/** Any JSON-ish value, including the wrong type for every field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 1.5, 2 ** 31, -(2 ** 53), Number.MAX_VALUE),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** An object with the route's own keys (so validation reaches each field) set to hostile values. */
export function hostileObject(keys: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] });
}

/**
 * Percent-encodes every UTF-8 byte that is not unreserved. Unlike encodeURIComponent it never
 * throws: a lone surrogate goes out as the bytes a careless client would send.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A query string: known keys and random ones, repeated keys (arrays), raw unencoded bytes. */
export function hostileQuery(keys: readonly string[]): fc.Arbitrary<string> {
  const key = keys.length ? fc.oneof(fc.constantFrom(...keys), hostileString) : hostileString;
  const pair = fc.tuple(key, hostileString).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`);
  return fc.oneof(
    fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join('&')),
    fc.constantFrom('a=%00', '%', '=&=&', 'p=1&p=2&p=3', 'c[]=x', 'u[a]=b', `check=${'%41'.repeat(5000)}`),
  );
}

/** A path segment: hostile text, usually encoded, sometimes raw path tricks. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%C0%AF', '%E0%80%AF', 'a%') },
);

/** Multipart bodies a browser would never send: no boundary, truncated, wrong headers, floods. */
export const hostileMultipart: fc.Arbitrary<{ contentType: string; body: Buffer }> = fc.oneof(
  fc.constant({ contentType: 'multipart/form-data', body: Buffer.from('--x\r\n') }),
  fc.constant({ contentType: 'multipart/form-data; boundary=x', body: Buffer.from('--x\r\nContent-Dis') }),
  fc.constant({ contentType: 'multipart/form-data; boundary=x', body: Buffer.from('garbage') }),
  fc.constant({ contentType: 'multipart/form-data; boundary=', body: Buffer.from('--\r\n') }),
  fc.constant({
    contentType: 'multipart/form-data; boundary=x',
    body: Buffer.from('--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nabc'),
  }),
  fc.tuple(hostileString, hostileString).map(([name, value]) => ({
    contentType: 'multipart/form-data; boundary=b0',
    body: Buffer.from(
      `--b0\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--b0--\r\n`,
      'utf8',
    ),
  })),
  fc.uint8Array({ maxLength: 400 }).map((bytes) => ({
    contentType: 'multipart/form-data; boundary=b1',
    body: Buffer.concat([
      Buffer.from('--b1\r\nContent-Disposition: form-data; name="profile_img"; filename="a.png"\r\n'),
      Buffer.from('Content-Type: image/png\r\n\r\n'),
      Buffer.from(bytes),
      Buffer.from('\r\n--b1--\r\n'),
    ]),
  })),
);

/** Binary attachments: socket.io sends each Buffer as a frame of its own after the packet. */
export const hostileBinary: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom(Buffer.alloc(0), Buffer.from('\u0000'), Buffer.alloc(200_000, 0xff)),
);

/** A socket payload: any hostile value, a binary attachment, or binary inside an object or array. */
export const hostileSocketValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileValue },
  { weight: 1, arbitrary: hostileBinary },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileBinary, hostileValue), { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileBinary, { minKeys: 1, maxKeys: 3 }) },
);

/**
 * The arguments of a socket event before its acknowledgement: as many as the event takes (each an
 * object with the argument's own keys, a hostile value, or one of `plausible`), or too few or too
 * many. `plausible` values get a handler past its first check to the parts behind it.
 */
export function hostileArgs(
  argKeys: readonly (readonly string[])[],
  plausible: fc.Arbitrary<unknown>[] = [],
): fc.Arbitrary<unknown[]> {
  const arg = (keys: readonly string[]) =>
    fc.oneof(
      hostileSocketValue,
      hostileObject(keys),
      ...(plausible.length ? [{ weight: 2, arbitrary: fc.oneof(...plausible) }] : []),
    );
  return fc.oneof(
    { weight: 3, arbitrary: fc.tuple(...argKeys.map(arg)) as fc.Arbitrary<unknown[]> },
    { weight: 1, arbitrary: fc.array(hostileSocketValue, { maxLength: 4 }) },
  );
}
