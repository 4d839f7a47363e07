import { describe, expect, it } from 'vitest';
import { askForBlanks } from './blank-fields';

// The game editor's emptied fields, as the import answers them: the host is asked to fill them.

const at = 'series.0.games.1';
const doc = {
  series: [
    {
      games: [
        {},
        {
          schedule: { open: '', standby: 'not a time', complete: '2026-12-04T18:00:00Z' },
          questions: [
            { secs_to_answer: Number.NaN },
            { slider: { min: Number.NaN, max: 10, step: null }, outcome: Number.NaN },
          ],
        },
      ],
    },
  ],
};

describe('askForBlanks', () => {
  it('asks once for an emptied time and keeps the words for a time typed wrong', () => {
    expect(
      askForBlanks(
        [
          { path: `${at}.schedule.open`, message: 'A time with its zone, like 2026-12-01T18:00:00Z' },
          { path: `${at}.schedule.open`, message: 'A time from the year 2000 to 9999' },
          { path: `${at}.schedule.standby`, message: 'A time with its zone, like 2026-12-01T18:00:00Z' },
        ],
        doc,
      ),
    ).toEqual([
      { path: `${at}.schedule.open`, message: 'Enter a time.' },
      { path: `${at}.schedule.standby`, message: 'A time with its zone, like 2026-12-01T18:00:00Z' },
    ]);
  });

  it('asks for an emptied number by what it is, with its range', () => {
    const expected = (path: string) => ({ path: `${at}.${path}`, message: 'Expected a number' });
    expect(
      askForBlanks(
        [
          expected('questions.0.secs_to_answer'),
          expected('questions.1.slider.min'),
          expected('questions.1.slider.step'),
          { path: `${at}.questions.1.outcome`, message: "An outcome is a number, 'crowd' or 'pending'" },
          // A number that is there keeps the import's words.
          { path: `${at}.questions.1.slider.max`, message: 'max must be above min' },
        ],
        doc,
      ).map((p) => p.message),
    ).toEqual([
      'Enter the seconds to answer (5 to 120).',
      'Enter the lowest value of the slider.',
      'Enter the step between the slider’s values (above 0).',
      'Enter the outcome, a number on the slider.',
      'max must be above min',
    ]);
  });
});
