-- Results: statistics precomputed per game, so question statistics answer from a few hundred rows
-- instead of scanning every answer of a game (a game may have a million players). They are written
-- inside the scoring transaction (buildStatsCache), or by the first reader of a game scored before
-- this table existed; a scored game's answers never change, so the rows stay true.

-- One row per game whose statistics are built: readers check it before trusting the cache.
CREATE TABLE question_stats_built (
  game_id uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
  built_at timestamptz NOT NULL DEFAULT now()
);

-- Answer counts per question and slot (choice index; for predict questions the range bucket 0..9),
-- for everyone ('all', group_value '') and per statistics group: 'age' (bracket label at the game's
-- complete time), 'geo' (geo-group community id) and 'community' (subcommunity id).
CREATE TABLE question_stats_cache (
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  group_kind text NOT NULL CHECK (group_kind IN ('all', 'age', 'geo', 'community')),
  group_value text NOT NULL,
  question_i int NOT NULL,
  slot int NOT NULL,
  ct int NOT NULL,
  PRIMARY KEY (game_id, group_kind, group_value, question_i, slot)
);

-- The crowd median of each predict question (the truth when no host outcome is entered): a median
-- needs every answer, so it is kept rather than recomputed per request.
CREATE TABLE question_stats_medians (
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  question_i int NOT NULL,
  median double precision NOT NULL,
  PRIMARY KEY (game_id, question_i)
);
