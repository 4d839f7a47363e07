import {
  type HostOutcome,
  httpRoutes,
  type Season,
  type SeasonImportResult,
  type SeasonProblem,
} from '@hunch/contract';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, errorFrom, readSuccess, sendApi } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/** The host console's calls (hosting spec §4-§5), each through the contract's route table. */

export { useHostCommunities } from './use-host-communities';

/** A community's season document, with the version (ETag) its edits are saved over. */
export interface HostSeason {
  doc: Season;
  /** Its export's ETag; null for a community to create (it must not exist yet); undefined: none. */
  version: string | null | undefined;
}

/** GET the community's export as JSON, parsed, with its version. */
export async function fetchSeason(community: string): Promise<HostSeason> {
  const res = await sendApi(httpRoutes.seasonExport, { params: { community } });
  if (!res.ok) throw await errorFrom(res);
  const doc = await readSuccess(httpRoutes.seasonExport, res);
  if (typeof doc === 'string') throw new Error('The server sent the season as YAML, not JSON');
  const { parseSeason } = await import('./season-checks');
  return { doc: parseSeason(doc), version: res.headers.get('etag') ?? undefined };
}

/**
 * The community's season document (GET export as JSON), parsed: defaults filled in, so every
 * field the editors show is present. Importing it back changes nothing.
 */
export function useSeason(community: string) {
  return useQuery({
    queryKey: queryKeys.hostSeason(community),
    enabled: community !== '',
    queryFn: () => fetchSeason(community),
    // An editor works from the document it loaded; a refetch mid-edit would not change the draft.
    staleTime: 0,
  });
}

export function useHostGames(community: string) {
  return useQuery({
    queryKey: queryKeys.hostGames(community),
    enabled: community !== '',
    queryFn: () => callApi(httpRoutes.hostGames, { params: { community } }),
  });
}

export function useHosts(community: string) {
  return useQuery({
    queryKey: queryKeys.hostHosts(community),
    queryFn: () => callApi(httpRoutes.communityHosts, { params: { community } }),
  });
}

export function useAudit(community: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.hostAudit(community),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      callApi(httpRoutes.hostAudit, { params: { community }, query: { before: pageParam } }),
    getNextPageParam: (page) => page.next ?? undefined,
  });
}

/** What an import answered: its counts, or every problem at its path (400). */
export type ImportOutcome =
  | { ok: true; result: SeasonImportResult }
  | { ok: false; problems: SeasonProblem[] };

/**
 * POST /api/host/import (or its dry run) with a document (as JSON) or a file (.yaml, .json or
 * .zip in the form field `season`). A 400 listing problems is an answer to show, not a failure;
 * any other refusal throws with the server's sentence.
 */
export async function importSeason(
  source: Season | File,
  dryRun: boolean,
  /** The version the edits started from: the server refuses (412) when the community changed. */
  version?: string | null,
  /** The community imported into (a console page's): the server refuses a file for another one. */
  into?: string,
): Promise<ImportOutcome> {
  let body: Blob | FormData;
  if (source instanceof File) {
    body = new FormData();
    body.set('season', source);
  } else {
    body = new Blob([JSON.stringify(source)], { type: 'application/json' });
  }
  const res = await sendApi(httpRoutes.seasonImport, {
    query: { dry_run: dryRun ? '1' : '0', community: into },
    body,
    ...(typeof version === 'string' && { ifMatch: version }),
    ...(version === null && { ifNoneMatch: '*' as const }),
  });
  if (res.status === 400 && res.headers.get('content-type')?.includes('json')) {
    const { seasonProblemsOf } = await import('./season-checks');
    const problems = seasonProblemsOf(await res.clone().json());
    if (problems) return { ok: false, problems };
  }
  if (!res.ok) throw await errorFrom(res);
  return { ok: true, result: await readSuccess(httpRoutes.seasonImport, res) };
}

export type ImageKind = 'communities' | 'games' | 'questions';

/** POST /api/host/image: the stored image's name, for a document's image field. */
export async function uploadImage(kind: ImageKind, file: File): Promise<string> {
  const body = new FormData();
  body.set('image', file);
  const { name } = await callApi(httpRoutes.hostImage, { query: { kind }, body });
  return name;
}

export function putOutcome(uuid: string, questionI: number, body: HostOutcome) {
  return callApi(httpRoutes.hostOutcome, { params: { uuid, question_i: questionI }, body });
}

export function deleteGame(uuid: string) {
  return callApi(httpRoutes.hostDeleteGame, { params: { uuid } });
}

export function setHost(community: string, username: string, host: boolean) {
  const def = host ? httpRoutes.grantHost : httpRoutes.revokeHost;
  return callApi(def, { params: { community, username } });
}

/** After a write, everything the console shows may have changed (documents, states, the log). */
export function useRefreshHost() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.hostAll });
}
