// `npm start`: builds the web app if web/dist holds no build of its sources as they are now (a first
// start, or a pull since the last build) and bundles the server (always: it takes well under a
// second, decision 026), then runs the bundle in this process's place (signals
// reach it directly, so Ctrl-C and SIGTERM shut it down cleanly). `--dev` runs the TypeScript
// source through tsx instead.
import { execSync, spawn } from 'node:child_process';
import path from 'node:path';
import { buildServer } from './build-server.mjs';
import { serverEnv, serverNodeFlags } from './server-node-flags.mjs';
import { webBuildIsCurrent } from './web-build-inputs.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (!webBuildIsCurrent(root, path.join(root, 'web/dist'))) {
  console.log('Building the web app (its sources changed since the last build, or it has none)...');
  execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });
}
const dev = process.argv.includes('--dev');
const entry = dev ? ['--import', 'tsx', path.join(root, 'server/src/main.ts')] : [await buildServer()];
const args = [...serverNodeFlags(), ...entry];
const child = spawn(process.execPath, args, {
  cwd: root,
  env: { ...process.env, ...serverEnv(process.env) },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
