import { isUtf8 } from 'node:buffer';
import {
  httpRoutes,
  type SeasonImportResult,
  type SeasonProblem,
  seasonJsonSchema,
  seasonVersionSchema,
} from '@hunch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadGame } from '../core/game-queries';
import type { AppContext } from '../platform/app-context';
import { requireHost } from '../platform/auth-guards';
import { acceptedBodyTypes } from '../platform/http/body-types';
import { HttpError } from '../platform/http/http-error';
import { registerRoute } from '../platform/http/register-route';
import { actorFor, readAudit, recordAudit } from './audit-log';
import { hostConsoleRoutes } from './host-console-routes';
import { addHost, communityIdOf, hostedCommunities, hostsOf, removeHost, userByName } from './host-queries';
import { applyOutcome, checkOutcome, outcomeTarget, type Rescore } from './outcome';
import { BUNDLE_LIMITS, looksLikeZip } from './season-bundle';
import { exportSeason, seasonVersion, seasonYaml } from './season-export';
import { importSeason, SEASON_TEXT_MAX_BYTES, type SeasonSource } from './season-import';
import { SeasonRefusal } from './season-refusal';

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];
const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed'];
const SEND_A_SEASON = acceptedBodyTypes('document');

/**
 * A 400 whose answer is the list of problems, as JSON (hosting spec §4), where every other refusal
 * is a sentence: the handler answers it itself, Fastify's documented way being to set the status
 * and return the body.
 */
function refuseWithProblems(reply: FastifyReply, problems: SeasonProblem[]): SeasonImportResult {
  reply.code(400);
  return { errors: problems } as unknown as SeasonImportResult;
}

/** The version an import saves over (If-Match), checked by the contract's schema; absent: any. */
function ifMatchOf(header: string | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const parsed = seasonVersionSchema.safeParse(header.trim());
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]!.message);
  return parsed.data;
}

/** What was sent: a document's text (by its content type) or a bundle (raw, or a form's file). */
async function seasonSource(request: FastifyRequest): Promise<SeasonSource> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (YAML_TYPES.includes(type) && typeof request.body === 'string')
    return { kind: 'text', text: request.body, format: 'yaml' };
  if (type === 'application/json' && typeof request.body === 'string')
    return { kind: 'text', text: request.body, format: 'json' };
  if (ZIP_TYPES.includes(type) && Buffer.isBuffer(request.body)) return { kind: 'zip', bytes: request.body };
  if (!request.isMultipart()) throw new HttpError(415, SEND_A_SEASON);
  try {
    const part = await request.file({
      limits: { fileSize: BUNDLE_LIMITS.maxBytes, files: 1, fields: 10, parts: 20 },
    });
    if (part?.fieldname !== 'season') throw new HttpError(400, SEND_A_SEASON);
    const bytes = await part.toBuffer();
    if (part.file.truncated)
      throw new HttpError(413, `The .zip is too large (${BUNDLE_LIMITS.maxBytes / 1024 / 1024} MB at most)`);
    if (looksLikeZip(bytes)) return { kind: 'zip', bytes };
    // A picture or a PDF chosen by mistake would be read as YAML and refused for its first line.
    if (!isUtf8(bytes) || bytes.includes(0))
      throw new HttpError(400, 'This file is not a season: choose a .zip, .yaml or .json file');
    // A season file sent on its own in the form: its name tells JSON from YAML.
    return {
      kind: 'text',
      text: bytes.toString('utf8'),
      format: /\.json$/i.test(part.filename) ? 'json' : 'yaml',
    };
  } catch (err) {
    // The multipart parser's own errors (a broken form) carry no status: the client sent them.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    throw new HttpError(400, 'The form could not be read: send it again');
  }
}

/**
 * The hosting calls. `rescore` scores a scored game again inside a transaction (scoring and
 * statistics belong to other features: app.ts composes it).
 */
export function hostingRoutes(app: FastifyInstance, ctx: AppContext, rescore: Rescore): void {
  const { db } = ctx;

  const communityOr404 = async (endpoint: string) => {
    const id = await communityIdOf(db, endpoint);
    if (id === undefined) throw new HttpError(404, `No community ${endpoint}`);
    return id;
  };

  registerRoute(app, httpRoutes.hostCommunities, async ({ userId }) => {
    const admin = await app.roles.isAdmin(userId);
    return { admin, communities: await hostedCommunities(db, admin ? null : userId, ctx.now()) };
  });

  registerRoute(app, httpRoutes.hostRole, async ({ userId }) => ({
    host: (await app.roles.isAdmin(userId)) || (await app.roles.isHost(userId)),
  }));

  registerRoute(app, httpRoutes.communityHosts, async ({ params }) => {
    const id = await communityOr404(params.community);
    return { community: params.community, hosts: await hostsOf(db, id) };
  });

  for (const [def, grant] of [
    [httpRoutes.grantHost, true],
    [httpRoutes.revokeHost, false],
  ] as const) {
    registerRoute(app, def, async ({ params, userId }) => {
      const id = await communityOr404(params.community);
      const user = await userByName(db, params.username);
      if (!user) throw new HttpError(404, `No account named ${params.username}`);
      const actor = await actorFor(db, userId);
      await db.transaction(async (tx) => {
        const changed = grant ? await addHost(tx, id, user.id) : await removeHost(tx, id, user.id);
        if (changed)
          await recordAudit(tx, actor, [
            {
              communityId: id,
              action: grant ? 'host.granted' : 'host.revoked',
              target: user.username,
              old: { host: !grant },
              new: { host: grant },
            },
          ]);
      });
      return { community: params.community, hosts: await hostsOf(db, id) };
    });
  }

  let schema: Record<string, unknown> | undefined;
  registerRoute(app, httpRoutes.seasonSchema, async () => {
    schema ??= seasonJsonSchema();
    return schema;
  });

  registerRoute(app, httpRoutes.seasonExport, async ({ params, request, reply }) => {
    const season = await exportSeason(db, params.community);
    if (!season) throw new HttpError(404, `No community ${params.community}`);
    reply.header('etag', seasonVersion(season));
    if (/application\/json/.test(request.headers.accept ?? '')) return season;
    reply
      .type('application/yaml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${params.community}.yaml"`);
    return seasonYaml(
      season,
      ` Hunch season file: ${params.community}, exported ${new Date().toISOString()}.\n` +
        ' Import it with `npm run hunch -- import FILE` or POST /api/host/import; the format is at\n' +
        ' /api/host/season.schema.json.',
    );
  });

  registerRoute(app, httpRoutes.hostOutcome, async ({ params, body, userId, request }) => {
    const target = await outcomeTarget(db, params.uuid, params.question_i);
    if (!target) throw new HttpError(404, 'No such game or question');
    await requireHost(request, target.community);
    checkOutcome(target, params.question_i, body, ctx.now());
    const actor = await actorFor(db, userId);
    const changed = await applyOutcome(db, params.uuid, params.question_i, target, body, actor, rescore);
    const game = (await loadGame(db, params.uuid, ctx.now(), userId))!;
    if (!changed) return game;
    // Players see what the game waits for, or new scores. Once nothing waits, the clock scores it
    // and pushes 'complete' itself, which the real-time composition has it do at once: the answer
    // is the game as it is after that.
    await ctx.hooks.gameChanged(params.uuid, game.state);
    return game.state === 'results' ? (await loadGame(db, params.uuid, ctx.now(), userId))! : game;
  });

  hostConsoleRoutes(app, ctx);

  registerRoute(app, httpRoutes.hostAudit, async ({ params, query }) => {
    const id = await communityOr404(params.community);
    return readAudit(db, id, query.before);
  });

  // The import reads its own body (YAML, JSON as text for its line numbers, a .zip), so its
  // parsers live in a scope of their own and change nothing for the other routes.
  app.register(async (scope) => {
    const asText = { parseAs: 'string', bodyLimit: SEASON_TEXT_MAX_BYTES } as const;
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(['application/json', ...YAML_TYPES], asText, (_req, body, done) =>
      done(null, body),
    );
    scope.addContentTypeParser(
      ZIP_TYPES,
      { parseAs: 'buffer', bodyLimit: BUNDLE_LIMITS.maxBytes },
      (_r, body, done) => done(null, body),
    );
    registerRoute(scope, httpRoutes.seasonImport, async ({ query, userId, request, reply }) => {
      const ifMatch = ifMatchOf(request.headers['if-match']);
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*')
        throw new HttpError(
          400,
          'If-None-Match takes only *: create the community only if it does not exist',
        );
      const source = await seasonSource(request);
      try {
        return await importSeason(db, source, {
          dryRun: query.dry_run,
          into: query.community,
          ifMatch,
          createOnly: ifNoneMatch !== undefined,
          actor: await actorFor(db, userId),
          now: ctx.now(),
          uploadsDir: ctx.uploadsDir,
          async scheduleChanged(games) {
            for (const { uuid, state } of games) await ctx.hooks.gameChanged(uuid, state);
          },
          async authorize(endpoint, exists) {
            if (exists) await requireHost(request, endpoint);
            else if (!(await app.roles.isAdmin(userId)))
              throw new HttpError(
                403,
                `Only an admin may create a community: ${endpoint} does not exist yet`,
              );
          },
        });
      } catch (err) {
        if (err instanceof SeasonRefusal) return refuseWithProblems(reply, err.problems);
        throw err;
      }
    });
  });
}
