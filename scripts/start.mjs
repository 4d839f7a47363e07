// `npm start`: builds the web app if it has not been built yet and bundles the server (always: it
// takes well under a second, decision 026), then runs the bundle in this process's place (signals
// reach it directly, so Ctrl-C and SIGTERM shut it down cleanly). `--dev` runs the TypeScript
// source through tsx instead.
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from './build-server.mjs';
import { serverEnv, serverNodeFlags } from './server-node-flags.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'web/dist/index.html'))) {
  console.log('Building the web app (first start only)...');
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
