import type { Season } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { makeSeasonGame } from '../../test/factories';
import { filePlace, pathParts, pathText } from './path-text';
import { newQuestion } from './season-edit';

const doc: Season = {
  community: { endpoint: 'runners', name: 'Runners', description: '', listed: true, categories: [] },
  series: [
    {
      endpoint: 'weekly-picks',
      name: 'Weekly Picks',
      description: '',
      games: [makeSeasonGame([newQuestion('vote'), newQuestion('predict')])],
    },
  ],
};

describe('a document path in a host’s words', () => {
  it('numbers from 1 as the editor does and names slider and schedule fields', () => {
    expect(pathText('series.0.games.0.questions.1.slider.max')).toBe(
      'Series 1 › Game 1 › Question 2 › Slider max',
    );
    expect(pathText('series.2.games.4.schedule.standby')).toBe('Series 3 › Game 5 › Standby time');
    // With the document, a schedule field is named as the game's schedule fields are, by its kind.
    const doc = (synchronous: boolean) => ({
      series: [{ name: 'Weekly', games: [{ key: 'w1', synchronous }] }],
    });
    expect(pathText('series.0.games.0.schedule.standby', doc(false))).toBe(
      'Series 1 (Weekly) › Game 1 (w1) › Submissions close',
    );
    expect(pathText('series.0.games.0.schedule.standby', doc(true))).toBe(
      'Series 1 (Weekly) › Game 1 (w1) › Game starts',
    );
    expect(pathText('series.0.games.0.schedule.open', doc(true))).toBe(
      'Series 1 (Weekly) › Game 1 (w1) › Lobby opens',
    );
    expect(pathText('series.0.games.0.questions.0.choices.11.image')).toBe(
      'Series 1 › Game 1 › Question 1 › Choice 12 › Image',
    );
    expect(pathText('series.0.games.0.questions.2.secs_to_answer')).toBe(
      'Series 1 › Game 1 › Question 3 › Seconds to answer',
    );
  });

  it('names series and games from the document when it is given', () => {
    expect(pathText('series.0.games.0.questions.1.slider.max', doc)).toBe(
      'Series 1 (Weekly Picks) › Game 1 (week-1) › Question 2 › Slider max',
    );
    // A path past the end of the document still reads, by number only.
    expect(pathText('series.0.games.3.key', doc)).toBe('Series 1 (Weekly Picks) › Game 4 › Key');
  });

  it('reads community fields, lists without an index and unknown keys', () => {
    expect(pathText('community.endpoint')).toBe('Community › Endpoint');
    expect(pathText('community.categories.0')).toBe('Community › Category 1');
    expect(pathText('series.0.games.0.questions')).toBe('Series 1 › Game 1 › Questions');
    expect(pathText('category_groups.Sports.0')).toBe('Category groups › Sports › Item 1');
    expect(pathText('series.0.games.0.speed_bonus')).toBe('Series 1 › Game 1 › Speed bonus');
  });

  it('a place in the file: the path as written, then the line; the whole file has no path', () => {
    expect(filePlace({ path: '', line: 4, column: 1 }, true)).toEqual({
      path: null,
      line: 'line 4, column 1',
    });
    expect(filePlace({ path: 'series.0.name', line: 9 }, true)).toEqual({
      path: 'series.0.name',
      line: 'line 9',
    });
    // An editor screen's document was never a file the host wrote: no lines.
    expect(filePlace({ path: 'series.0.name', line: 9, column: 3 }, false)).toEqual({
      path: 'series.0.name',
      line: null,
    });
  });

  it('an empty path is the whole file; parts are relative to the record given', () => {
    expect(pathText('')).toBe('The whole file');
    expect(pathParts('questions.1.text')).toEqual(['Question 2', 'Text']);
    expect(pathParts('schedule.open')).toEqual(['Opening time']);
  });
});
