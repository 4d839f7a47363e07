import type { AppHooks } from './app-hooks';
import type { Config } from './config';
import type { Db } from './db/database';

/** What every feature's routes receive: passed in, never global, so each test builds its own. */
export interface AppContext {
  db: Db;
  config: Config;
  /** DATA_DIR/uploads: user, community, game and question images. */
  uploadsDir: string;
  /** The clock. Tests move it to play a whole game schedule in a second. */
  now: () => Date;
  /** What one feature announces for another to act on (app/ wires them). */
  hooks: AppHooks;
}
