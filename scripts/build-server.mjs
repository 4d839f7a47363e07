// The server as `npm start` runs it: server/src/main.ts and the workspace packages it imports
// (@hunch/contract, @hunch/rules) bundled by esbuild into server/dist/main.mjs, npm packages left
// to Node; beside it the season reader's thread (server/dist/season-read-worker.mjs, decision 040). Without tsx in the running process the idle server holds ~50 MB less (decision 026);
// the tests and `npm run dev` still run the TypeScript itself. Fast (well under a second), so
// `npm start` bundles every time and never runs stale code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, stop } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const serverBundle = path.join(root, 'server/dist/main.mjs');

/** npm packages the server, contract and rules depend on: imported at run time, not bundled. */
function npmPackages() {
  const names = new Set();
  for (const workspace of ['server', 'contract', 'rules']) {
    const pkg = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }))
      if (!name.startsWith('@hunch/')) names.add(name);
  }
  return [...names];
}

export async function buildServer() {
  await build({
    entryPoints: {
      main: path.join(root, 'server/src/main.ts'),
      'season-read-worker': path.join(root, 'server/src/hosting/season-read-worker.ts'),
    },
    outdir: path.dirname(serverBundle),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: npmPackages(),
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // esbuild's service process would otherwise stay beside the server for nothing.
  await stop();
  return serverBundle;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer();
  console.log(`built ${path.relative(root, serverBundle)}`);
}
