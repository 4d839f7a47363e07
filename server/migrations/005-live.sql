-- The live driver of a synchronous game: one process holds the lease and announces each step.
CREATE TABLE live_games (
  game_id uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
  holder text,                         -- the process driving the game
  epoch int NOT NULL DEFAULT 0,        -- fencing token: bumped on every takeover, checked on every write
  lease_until timestamptz,
  step int NOT NULL DEFAULT -1,        -- last step announced (0 start, 1..n questions, n+1 complete)
  bots_holder text,                    -- the process running demo bots for this game
  finished_at timestamptz
);
CREATE INDEX games_synchronous_standby ON games (standby_at) WHERE synchronous;
