import { openPostgres } from '../db/postgres';
import { migrate } from '../db/migrate';
import { benchResults } from './results-bench';
const db = await openPostgres('postgres://postgres@127.0.0.1:5432/test', { searchPath: 'rbench', max: 5 });
await migrate(db);
await benchResults(db, { participants: Number(process.argv[2]) });
await db.close();
