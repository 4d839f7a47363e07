import type { SeasonProblem } from '@hunch/contract';

/** A season that cannot be imported: every problem at its path. Answered as 400 {errors}. */
export class SeasonRefusal extends Error {
  constructor(readonly problems: SeasonProblem[]) {
    super(problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('\n'));
    this.name = 'SeasonRefusal';
  }
}
