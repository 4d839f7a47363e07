import type { SeasonGame, SeasonProblem } from '@hunch/contract';

/**
 * A refused import answers every problem at its path in the document
 * (`series.0.games.2.questions.1.slider.max`, hosting spec §4). Each console field is named by
 * the path it edits; a problem is shown beside the field at its path, or at the nearest enclosing
 * one shown (a wrong choice count at `...questions.1.choices` goes beside the choice list). The
 * rest, about parts of the document this screen does not show, are listed apart with their paths.
 */

/** The element id of the field editing `path` (ids are plain, so the summary can link to them). */
export function fieldId(path: string): string {
  return `f-${path.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

export const errorIdOf = (path: string) => `${fieldId(path)}-error`;

export interface PlacedProblems {
  /** Field path -> the messages shown beside it. */
  byField: Map<string, string[]>;
  /** Each problem with the field it is shown at, in the server's order (for the summary). */
  placed: { problem: SeasonProblem; field: string }[];
  /** Problems with no field on this screen. */
  elsewhere: SeasonProblem[];
}

/** The nearest of `known` that is `path` or encloses it, segment by segment. */
export function nearestField(path: string, known: ReadonlySet<string>): string | undefined {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const candidate = parts.slice(0, n).join('.');
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

export function placeProblems(problems: readonly SeasonProblem[], known: Iterable<string>): PlacedProblems {
  const fields = new Set(known);
  const byField = new Map<string, string[]>();
  const placed: PlacedProblems['placed'] = [];
  const elsewhere: SeasonProblem[] = [];
  for (const problem of problems) {
    const field = nearestField(problem.path, fields);
    if (field === undefined) {
      elsewhere.push(problem);
      continue;
    }
    byField.set(field, [...(byField.get(field) ?? []), problem.message]);
    placed.push({ problem, field });
  }
  return { byField, placed, elsewhere };
}

export const COMMUNITY_FIELDS = [
  'community',
  'community.endpoint',
  'community.name',
  'community.description',
  'community.image',
  'community.listed',
  'community.categories',
  'category_groups',
] as const;

export function seriesFields(prefix: string): string[] {
  return [prefix, ...['endpoint', 'name', 'description', 'image'].map((f) => `${prefix}.${f}`)];
}

/** Every field the game editor shows for the game at `prefix` (`series.0.games.2`). */
export function gameFields(prefix: string, game: SeasonGame): string[] {
  const at = (...parts: (string | number)[]) => [prefix, ...parts].join('.');
  const fields = [
    prefix,
    ...['key', 'name', 'image', 'synchronous', 'speed_bonus', 'subcommunities', 'questions'].map((f) =>
      at(f),
    ),
    ...['open', 'standby', 'complete'].map((f) => at('schedule', f)),
  ];
  game.questions.forEach((q, i) => {
    fields.push(...['', '.kind', '.text', '.image'].map((f) => at('questions', i) + f));
    // Seconds to answer are shown for live games only; otherwise the question takes their problems.
    if (game.synchronous) fields.push(at('questions', i, 'secs_to_answer'));
    if (q.kind === 'predict') {
      fields.push(at('questions', i, 'slider'));
      fields.push(...['min', 'max', 'step', 'unit'].map((f) => at('questions', i, 'slider', f)));
      fields.push(at('questions', i, 'outcome'));
      return;
    }
    fields.push(at('questions', i, 'choices'));
    q.choices.forEach((_, c) => {
      fields.push(at('questions', i, 'choices', c), at('questions', i, 'choices', c, 'image'));
    });
    if (q.kind === 'guess') fields.push(at('questions', i, 'linked_vote'));
  });
  return fields;
}
