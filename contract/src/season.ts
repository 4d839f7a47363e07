import type { z } from 'zod';
import { seasonProblems } from './season-checks';
import { inDocumentOrder } from './season-order';
import { partsOfSeason, readSeasonParts, type SeasonParts } from './season-parts';
import { type Season, type SeasonProblem, seasonSchema } from './season-schema';

/**
 * Season files (hosting spec §4), read with all their problems at once. The format is in
 * season-schema.ts, the rules a document breaks within itself in season-checks.ts, and the parts
 * of a document that still get checked when it does not parse whole in season-parts.ts.
 */
export * from './season-checks';
export * from './season-order';
export * from './season-parts';
export * from './season-schema';

const typeNames: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of fields',
};

/** zod's wording is for developers; a host gets a sentence about the field. */
function problemOf(issue: z.core.$ZodIssue): SeasonProblem[] {
  const path = issue.path.map(String);
  const at = (p: string[], message: string): SeasonProblem => ({ path: p.join('.'), message });
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((k) => at([...path, k], `Unknown field ${k}`));
    case 'invalid_type': {
      const expected = typeNames[issue.expected] ?? issue.expected;
      return [at(path, issue.input === undefined ? `Missing: give ${expected}` : `Expected ${expected}`)];
    }
    case 'invalid_union': {
      const last = path[path.length - 1];
      if ('discriminator' in issue && issue.discriminator === 'kind')
        return [at(path, 'kind is one of vote, guess or predict')];
      if (last === 'outcome') return [at(path, "An outcome is a number, 'crowd' or 'pending'")];
      return [at(path, 'A choice is a text, or {text, image}')];
    }
    default:
      // Our schemas carry sentences for every other check; zod's fallbacks still name the field.
      return [at(path, issue.message)];
  }
}

/**
 * Checks a parsed YAML or JSON value against the format and its in-document rules: every problem,
 * each at its path, in the order of the document; `season` is set only when there are none. When
 * the whole does not parse, the rules are still checked on its `parts` that do, and the same parts
 * go on to the checks against what is stored, so one answer lists all a host has to fix.
 */
export function parseSeason(value: unknown): {
  season?: Season;
  parts: SeasonParts;
  problems: SeasonProblem[];
} {
  const result = seasonSchema.safeParse(value, { reportInput: true });
  if (result.success) {
    const parts = partsOfSeason(result.data);
    const problems = inDocumentOrder(seasonProblems(parts), value);
    return problems.length > 0 ? { parts, problems } : { season: result.data, parts, problems };
  }
  const parts = readSeasonParts(value);
  const shape = result.error.issues.flatMap(problemOf);
  return { parts, problems: inDocumentOrder([...shape, ...seasonProblems(parts)], value) };
}
