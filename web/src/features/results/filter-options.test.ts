import { describe, expect, it } from 'vitest';
import { filterOptions } from './filter-options';

describe('filterOptions', () => {
  it('offers the groups the statistics show, labelled', () => {
    expect(filterOptions(['18-24', '25-34'], '')).toEqual([
      { value: '18-24', label: '18-24' },
      { value: '25-34', label: '25-34' },
    ]);
    expect(filterOptions(['red-team'], 'red-team', (v) => `Team ${v}`)).toEqual([
      { value: 'red-team', label: 'Team red-team' },
    ]);
  });

  it("adds the URL's group when it is not offered (withheld), so the select shows it", () => {
    expect(filterOptions(['18-24'], '12-17')).toEqual([
      { value: '18-24', label: '18-24' },
      { value: '12-17', label: '12-17' },
    ]);
  });
});
