import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The server package's folder (`server/`), found from this module whether it runs from its source
 * (tests, tsx) or from the bundle `npm start` builds (`server/dist/main.mjs`, decision 026): files
 * that ship beside the code (migrations, the PGlite worker, the geo-group table) are found from it,
 * not from a module's own place, which differs between the two.
 */
function findServerDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@hunch/server'
    )
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no @hunch/server package.json above ${from}`);
  }
}

export const SERVER_DIR = findServerDir(import.meta.dirname);

/** A file or folder of the server package, by its path inside it ('migrations'). */
export const serverPath = (...parts: string[]) => path.join(SERVER_DIR, ...parts);
