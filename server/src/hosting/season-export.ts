import { createHash } from 'node:crypto';
import type { SeasonInput } from '@hunch/contract';
import { Document, isMap, isScalar, visit } from 'yaml';
import type { Queryable } from '../platform/db/database';
import { seasonGame } from './season-convert';
import { type CommunityState, loadCommunityState } from './season-queries';

const DEFAULT_IMAGE = '_.jpg';

/**
 * A community as a season file: importing it back changes nothing (images are written as the
 * names of the uploaded files). Undefined for an unknown community.
 */
export async function exportSeason(db: Queryable, endpoint: string): Promise<SeasonInput | undefined> {
  const state = await loadCommunityState(db, endpoint);
  return state && seasonOf(state);
}

/**
 * The version of a community's document: its export's ETag, which an import's If-Match names to
 * refuse overwriting changes made since (decision 034). The export is built in a fixed order, so
 * the same content always has the same version, whatever the format asked for.
 */
export function seasonVersion(season: SeasonInput): string {
  return `"${createHash('sha256').update(JSON.stringify(season)).digest('base64url')}"`;
}

/** The stored community as its season document. */
export function seasonOf(state: CommunityState): SeasonInput {
  const { community } = state;
  const groups: Record<string, string[]> = {};
  for (const c of community.categories) {
    // The unnamed group has no name to write; its categories exist wherever this file goes back.
    if (c.group !== null) groups[c.group] = [...(groups[c.group] ?? []), c.name];
  }
  return {
    community: {
      endpoint: community.endpoint,
      name: community.name,
      ...(community.description !== '' && { description: community.description }),
      ...(community.image !== DEFAULT_IMAGE && { image: community.image }),
      listed: community.listed,
      categories: community.categories.map((c) => c.name),
    },
    ...(Object.keys(groups).length > 0 && { category_groups: groups }),
    series: state.series.map((s) => ({
      endpoint: s.endpoint,
      name: s.name,
      ...(s.description !== '' && { description: s.description }),
      ...(s.image !== DEFAULT_IMAGE && { image: s.image }),
      games: state.games.filter((g) => g.seriesId === s.id).map(seasonGame),
    })),
  };
}

const FLOW_MAPS = new Set(['schedule', 'slider']);

/** YAML as a person would write it: schedules, sliders and lists of names on one line. */
export function seasonYaml(season: SeasonInput, header: string): string {
  const doc = new Document(season);
  doc.commentBefore = header;
  visit(doc, {
    Pair(_key, pair) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key === 'string' && FLOW_MAPS.has(key) && isMap(pair.value)) pair.value.flow = true;
    },
    Seq(_key, seq) {
      if (seq.items.length > 0 && seq.items.every(isScalar)) seq.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
