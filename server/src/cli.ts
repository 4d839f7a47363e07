import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SeasonCounts, SeasonImportResult } from '@hunch/contract';
import { COMMAND_LINE } from './hosting/audit-log';
import { looksLikeZip } from './hosting/season-bundle';
import { exportSeason, seasonYaml } from './hosting/season-export';
import { importSeason, type SeasonSource } from './hosting/season-import';
import { SeasonRefusal } from './hosting/season-refusal';
import { loadConfig } from './platform/config';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { MigrationChangedError, migrate } from './platform/db/migrate';
import { openDatabase } from './platform/db/open-database';
import { HttpError } from './platform/http/http-error';

/**
 * The command line (hosting spec §4): `npm run hunch -- import FILE [--dry-run]` and
 * `npm run hunch -- export COMMUNITY [--json]`, through the same import and export as the API. The
 * operator holds the database, so the command line may write every community; its writes are
 * audited as 'command line'. Exit codes: 0 done, 1 refused (the reasons on stderr), 2 usage.
 */

const USAGE = `Usage:
  npm run hunch -- import FILE [--dry-run]   import a season (.yaml, .yml, .json or a .zip bundle)
  npm run hunch -- export COMMUNITY [--json]  print a community's season file (YAML, or JSON)

Uses DATA_DIR (embedded database) or DATABASE_URL, like the server.`;

class Refused extends Error {}
class UsageError extends Error {}

// npm runs scripts from the package's folder; a FILE is named from where the command was typed.
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

function sourceOf(file: string, bytes: Buffer): SeasonSource {
  if (looksLikeZip(bytes)) return { kind: 'zip', bytes };
  return { kind: 'text', text: bytes.toString('utf8'), format: /\.json$/i.test(file) ? 'json' : 'yaml' };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const line = (c: SeasonCounts) =>
  `${plural(c.communities, 'community', 'communities')}, ${plural(c.series, 'series', 'series')}, ` +
  `${plural(c.games, 'game', 'games')}, ${plural(c.questions, 'question', 'questions')}`;

function report(file: string, r: SeasonImportResult): string {
  const games = r.games.map((g) => `  ${g.series}/${g.key}  ${g.uuid ?? '(new)'}`);
  return [
    r.dry_run ? `Checked ${file} (dry run: nothing written)` : `Imported ${file}`,
    `  created:   ${line(r.created)}`,
    `  updated:   ${line(r.updated)}`,
    `  unchanged: ${line(r.unchanged)}`,
    'games:',
    ...games,
  ].join('\n');
}

async function run(args: string[]): Promise<string> {
  const [command, target, ...rest] = args;
  const flags = new Set(rest);
  const known = command === 'import' ? ['--dry-run'] : ['--json'];
  if ((command !== 'import' && command !== 'export') || !target || rest.some((f) => !known.includes(f))) {
    throw new UsageError(USAGE);
  }
  const config = loadConfig();
  let bytes: Buffer | undefined;
  if (command === 'import') {
    bytes = await readFile(fromCaller(target)).catch((err: NodeJS.ErrnoException) => {
      throw new Refused(`Cannot read ${target}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(config);
  } catch (err) {
    if (err instanceof DataDirLockedError)
      throw new Refused(
        `${err.message}\nWhile a server holds the embedded database, import and export through it instead ` +
          '(POST /api/host/import, GET /api/host/export/COMMUNITY), or stop it first. ' +
          'With DATABASE_URL the command line works beside running servers.',
      );
    throw err;
  }
  try {
    await migrate(database.db);
    if (command === 'export') {
      const season = await exportSeason(database.db, target);
      if (!season) throw new Refused(`No community ${target}`);
      if (flags.has('--json')) return JSON.stringify(season, null, 2);
      return seasonYaml(
        season,
        ` Hunch season file: ${target}, exported ${new Date().toISOString()}.`,
      ).trimEnd();
    }
    const result = await importSeason(database.db, sourceOf(target, bytes!), {
      dryRun: flags.has('--dry-run'),
      actor: COMMAND_LINE,
      authorize: async () => undefined,
      now: new Date(),
      uploadsDir: path.join(config.dataDir, 'uploads'),
    });
    return report(target, result);
  } catch (err) {
    if (err instanceof SeasonRefusal) {
      const problems = err.problems.map((p) => {
        const where = p.line !== undefined ? ` (line ${p.line}, column ${p.column})` : '';
        return `  ${p.path || '(document)'}${where}: ${p.message}`;
      });
      throw new Refused(
        [`${target}: ${plural(problems.length, 'problem', 'problems')}, nothing written`, ...problems].join(
          '\n',
        ),
      );
    }
    if (err instanceof HttpError || err instanceof MigrationChangedError) throw new Refused(err.message);
    throw err;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(`${out}\n`);
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof Refused) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = err instanceof UsageError ? 2 : 1;
      return;
    }
    console.error(err);
    process.exitCode = 1;
  },
);
