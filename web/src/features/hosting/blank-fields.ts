import { SECS_TO_ANSWER_MAX, SECS_TO_ANSWER_MIN, type SeasonProblem } from '@hunch/contract';
import { valueAt } from './use-draft';

/**
 * The import's words for a field left empty are about a value typed wrong: a cleared schedule time
 * (sent as '') gets "A time with its zone, like…" and "A time from the year 2000 to 9999", a
 * cleared number (NaN, sent as null) "Expected a number". A host who emptied a field is asked to
 * fill it instead, in one sentence; a real bad value keeps the import's words.
 */
const ASKED: [RegExp, string][] = [
  [/\.schedule\.(open|standby|complete)$/, 'Enter a time.'],
  [/\.secs_to_answer$/, `Enter the seconds to answer (${SECS_TO_ANSWER_MIN} to ${SECS_TO_ANSWER_MAX}).`],
  [/\.slider\.min$/, 'Enter the lowest value of the slider.'],
  [/\.slider\.max$/, 'Enter the highest value of the slider.'],
  [/\.slider\.step$/, 'Enter the step between the slider’s values (above 0).'],
  [/\.outcome$/, 'Enter the outcome, a number on the slider.'],
];

const isBlank = (value: unknown) =>
  value === '' || value === null || (typeof value === 'number' && Number.isNaN(value));

/** `problems` of `doc` (the document sent), an empty field's said once as what to enter. */
export function askForBlanks(problems: readonly SeasonProblem[], doc: unknown): SeasonProblem[] {
  const seen = new Set<string>();
  return problems.flatMap((problem) => {
    const asked = isBlank(valueAt(doc, problem.path))
      ? ASKED.find(([pattern]) => pattern.test(problem.path))?.[1]
      : undefined;
    if (asked === undefined) return [problem];
    if (seen.has(problem.path)) return [];
    seen.add(problem.path);
    return [{ ...problem, message: asked }];
  });
}
