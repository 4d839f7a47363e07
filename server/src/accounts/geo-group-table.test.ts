import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeGeoGroupTable } from './geo-group-table';
import { GEO_GROUP_TABLE_FILE, geoGroupFor } from './geo-groups';

describe('geo-groups', () => {
  it('reads the table the zipcodes package gives (else: npm run geo-groups)', () => {
    const file = JSON.parse(readFileSync(GEO_GROUP_TABLE_FILE, 'utf8'));
    expect(file).toEqual(computeGeoGroupTable());
  });

  it('puts a zipcode in its metro area, or its own town far from every hub', () => {
    expect(geoGroupFor('77002')).toEqual({ endpoint: 'greater-houston-tx', name: 'Greater Houston, TX' });
    expect(geoGroupFor('60601')).toEqual({ endpoint: 'greater-chicago-il', name: 'Greater Chicago, IL' });
    expect(geoGroupFor('79843')).toEqual({ endpoint: 'marfa-tx', name: 'Marfa, TX' });
  });

  it("places a hub at its zipcodes' median: one record off by its sign does not move New York", () => {
    // Manhattan, the Bronx and Hoboken; New Haven joins Connecticut's largest metro (the mean had
    // it in New York's).
    for (const z of ['10001', '10451', '07030'])
      expect(geoGroupFor(z)).toEqual({ endpoint: 'greater-new-york-ny', name: 'Greater New York, NY' });
    expect(geoGroupFor('06511')?.name).toBe('Greater Hartford, CT');
    // A military post office (most have no place: 0, 0) is no metro: its zipcode keeps its own group.
    expect(geoGroupFor('09001')).toEqual({ endpoint: 'apo-ae', name: 'Apo, AE' });
  });

  it('knows no group for what is not a known 5-digit US zipcode', () => {
    for (const z of ['00000', '99999', '7700', '770021', 'abcde', '', ' 7700', '77\u00000'])
      expect(geoGroupFor(z)).toBeUndefined();
  });
});
