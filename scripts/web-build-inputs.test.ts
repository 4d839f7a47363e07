import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { INPUTS_STAMP, webBuildIsCurrent, webInputsHash } from './web-build-inputs.mjs';

// `npm start` builds the web app again when its sources changed since the last build: a checkout
// that pulled new screens must not keep serving the old ones.

let root = '';
const dist = () => path.join(root, 'web/dist');
const put = async (file: string, text: string) => {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
};
/** What a build leaves: its page and the hash of the sources it was made from. */
const built = async () => {
  await put('web/dist/index.html', '<!doctype html>');
  await put(`web/dist/${INPUTS_STAMP}`, webInputsHash(root));
};

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hunch-web-inputs-'));
  await put('web/src/main.tsx', 'render()');
  await put('web/src/features/a/screen.tsx', 'export const A = 1');
  await put('contract/src/index.ts', 'export {}');
  await put('rules/src/index.ts', 'export {}');
  await put('package-lock.json', '{}');
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('a folder without a build, or with a build that left no stamp, is built', async () => {
  expect(webBuildIsCurrent(root, dist())).toBe(false);
  await put('web/dist/index.html', '<!doctype html>');
  expect(webBuildIsCurrent(root, dist())).toBe(false);
  await built();
  expect(webBuildIsCurrent(root, dist())).toBe(true);
});

it('a change to a screen, the contract, the rules or the locked dependencies calls for a new build', async () => {
  for (const [file, text] of [
    ['web/src/features/a/screen.tsx', 'export const A = 2'],
    ['contract/src/index.ts', 'export const x = 1'],
    ['rules/src/points.ts', 'export const p = 1'],
    ['package-lock.json', '{"lockfileVersion":3}'],
    ['web/vite.config.ts', 'export default {}'],
  ] as const) {
    await built();
    await put(file, text);
    expect(webBuildIsCurrent(root, dist()), file).toBe(false);
  }
});

it('a renamed file counts as a change, a test file or the server does not', async () => {
  await built();
  await put('web/src/features/a/screen.test.tsx', 'it()');
  await put('server/src/main.ts', 'listen()');
  expect(webBuildIsCurrent(root, dist())).toBe(true);
  await rm(path.join(root, 'web/src/features/a/screen.tsx'));
  await put('web/src/features/a/screen-renamed.tsx', 'export const A = 1');
  expect(webBuildIsCurrent(root, dist())).toBe(false);
});
