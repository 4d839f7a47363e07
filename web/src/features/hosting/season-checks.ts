import { type Season, type SeasonProblem, seasonProblemsSchema, seasonSchema } from '@hunch/contract';

// The console's checks of season documents, with their zod schemas: host-api.ts loads this module
// with import() when a document or an import's answer arrives, so zod is not in the console's first
// screens (decision 025). The chunk is the route table's, which every page fetches at start.

/** A season document as the export sends it, with its defaults filled in. */
export function parseSeason(doc: unknown): Season {
  return seasonSchema.parse(doc);
}

/** The problems of a refused import (400), or null when the body is not such a list. */
export function seasonProblemsOf(body: unknown): SeasonProblem[] | null {
  const problems = seasonProblemsSchema.safeParse(body);
  return problems.success ? problems.data.errors : null;
}
