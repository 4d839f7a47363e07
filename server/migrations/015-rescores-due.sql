-- Games to score again because their entries changed after scoring: a player left the community
-- (their entries went) or the team they played for (their rank within it went). The leave writes
-- the row in its own transaction; the clock scores the game again in the background and deletes
-- the row, so a leave never waits for a big game's scoring, and one lost to a crash is done on the
-- next tick. `round` counts the leaves since the row was written: a scoring deletes the row only if
-- no leave came while it ran. A game not scored yet is dropped from here: its first scoring reads
-- what the leave changed.
CREATE TABLE rescores_due (
  game_id uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
  round int NOT NULL DEFAULT 1
);
