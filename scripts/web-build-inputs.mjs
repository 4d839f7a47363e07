// What the web build is made from, as one hash: `npm start` builds the web app again when the hash
// of its sources differs from the one its last build wrote, so a checkout that pulled new code never
// serves the old screens (a build left in web/dist used to be served as long as it existed).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The folders and files the web build reads (tests excluded: they change no byte of it). */
const INPUTS = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'contract/src',
  'rules/src',
  'scripts/browser-contract.ts',
  'scripts/first-screen.ts',
  'package-lock.json',
  'tsconfig.json',
];

/** Where a build leaves the hash of the inputs it was made from (`.vite/` is never served). */
export const INPUTS_STAMP = '.vite/inputs-hash';

const TEST_FILE = /\.test\.tsx?$/;

function* filesUnder(root, rel) {
  const entries = readdirSync(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) yield* filesUnder(root, child);
    else if (entry.isFile() && !TEST_FILE.test(entry.name)) yield child;
  }
}

function* inputFiles(root) {
  for (const input of INPUTS) {
    const full = path.join(root, input);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) yield* filesUnder(root, input);
    else yield input;
  }
}

/** The hash of every input's path and bytes under `root` (the repository). */
export function webInputsHash(root) {
  const hash = createHash('sha256');
  for (const file of inputFiles(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether `dist` holds a build made from the inputs as they are now under `root`. */
export function webBuildIsCurrent(root, dist) {
  if (!existsSync(path.join(dist, 'index.html'))) return false;
  const stamp = path.join(dist, INPUTS_STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === webInputsHash(root);
}
