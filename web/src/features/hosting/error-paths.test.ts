import { describe, expect, it } from 'vitest';
import { makeSeasonGame } from '../../test/factories';
import { fieldId, gameFields, nearestField, placeProblems } from './error-paths';
import { pathText } from './path-text';
import { newQuestion } from './season-edit';

const game = makeSeasonGame([newQuestion('vote'), newQuestion('guess'), newQuestion('predict')]);
const prefix = 'series.0.games.2';
const fields = gameFields(prefix, game);

describe('problem paths to the fields that show them', () => {
  it('a path the editor shows goes beside that field', () => {
    const placed = placeProblems(
      [
        { path: 'series.0.games.2.questions.2.slider.max', message: 'max must be above min' },
        { path: 'series.0.games.2.schedule.standby', message: 'standby must not be before open' },
      ],
      fields,
    );
    expect(placed.byField.get('series.0.games.2.questions.2.slider.max')).toEqual(['max must be above min']);
    expect(placed.byField.get('series.0.games.2.schedule.standby')).toEqual([
      'standby must not be before open',
    ]);
    expect(placed.elsewhere).toEqual([]);
  });

  it('a deeper path goes to the nearest enclosing field', () => {
    const known = new Set(fields);
    expect(nearestField('series.0.games.2.questions.0.choices.1.text', known)).toBe(
      'series.0.games.2.questions.0.choices.1',
    );
    expect(nearestField('series.0.games.2.subcommunities.3', known)).toBe('series.0.games.2.subcommunities');
    // A guess's linked vote is a field, a vote's is not: its question takes the message.
    expect(nearestField('series.0.games.2.questions.1.linked_vote', known)).toBe(
      'series.0.games.2.questions.1.linked_vote',
    );
    expect(nearestField('series.0.games.2.questions.0.linked_vote', known)).toBe(
      'series.0.games.2.questions.0',
    );
    expect(nearestField('series.0.games.2', known)).toBe('series.0.games.2');
  });

  it('problems about other parts of the document are listed apart, messages gather per field', () => {
    const placed = placeProblems(
      [
        { path: 'series.0.games.1.key', message: 'Another game of this series has the key week-1' },
        { path: 'community.name', message: 'The community name is empty' },
        { path: 'series.0.games.2.questions.0.choices', message: 'Give 2 to 12 choices' },
        { path: 'series.0.games.2.questions.0.choices.5', message: 'Choice A is listed twice' },
      ],
      fields,
    );
    expect(placed.elsewhere.map((p) => p.path)).toEqual(['series.0.games.1.key', 'community.name']);
    expect(placed.byField.get('series.0.games.2.questions.0.choices')).toEqual([
      'Give 2 to 12 choices',
      'Choice A is listed twice',
    ]);
    expect(placed.placed.map((p) => p.field)).toEqual([
      'series.0.games.2.questions.0.choices',
      'series.0.games.2.questions.0.choices',
    ]);
  });

  it('a problem placed at an enclosing field still reads at its own place', () => {
    const path = 'series.0.games.2.questions.0.choices.1.text';
    const { placed } = placeProblems([{ path, message: 'A choice is empty' }], fields);
    expect(placed[0]!.field).toBe('series.0.games.2.questions.0.choices.1');
    expect(pathText(placed[0]!.problem.path)).toBe('Series 1 › Game 3 › Question 1 › Choice 2 › Text');
  });

  it('field ids are valid, distinct ids', () => {
    expect(fieldId('series.0.games.2.questions.1.slider.max')).toBe(
      'f-series-0-games-2-questions-1-slider-max',
    );
    expect(new Set(fields.map(fieldId)).size).toBe(fields.length);
  });
});
