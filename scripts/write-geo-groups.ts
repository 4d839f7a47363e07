// npm run geo-groups: writes server/src/accounts/geo-group-table.json from the `zipcodes` package
// (after upgrading it; the geo-group test says when the file is out of date).
import { writeFileSync } from 'node:fs';
import { computeGeoGroupTable } from '../server/src/accounts/geo-group-table';
import { GEO_GROUP_TABLE_FILE } from '../server/src/accounts/geo-groups';

const table = computeGeoGroupTable();
writeFileSync(GEO_GROUP_TABLE_FILE, `${JSON.stringify(table)}\n`);
console.log(`${Object.keys(table.zips).length} zipcodes in ${table.groups.length} geo-groups`);
