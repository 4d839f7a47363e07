import { existsSync } from 'node:fs';
import path from 'node:path';

/** The monorepo root (this file is e2e/src/harness/paths.ts). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Screenshots and failure captures; git-ignored (`.e2e-artifacts/` in the root .gitignore). */
export const artifactsDir = path.join(repoRoot, '.e2e-artifacts');

/** The built web app the server serves on its own port; E2E_WEB_DIST points at another build. */
export const webDist = process.env.E2E_WEB_DIST
  ? path.resolve(process.env.E2E_WEB_DIST)
  : path.join(repoRoot, 'web', 'dist');

/** Browser tests need the built web app; say how to get it instead of failing on a blank page. */
export function assertWebBuilt(): void {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) {
    throw new Error(
      `The web app is not built: ${index} is missing.\n` +
        'Run `npm run build` in the repo root first (`npm test` builds it before running vitest).',
    );
  }
}
