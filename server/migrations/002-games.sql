-- Series, games, questions, participations and answers.
CREATE TABLE series (
  id serial PRIMARY KEY,
  community_id int NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  name text NOT NULL,
  image text NOT NULL DEFAULT '_.jpg',
  description text NOT NULL DEFAULT '',
  UNIQUE (community_id, endpoint)
);

CREATE TABLE games (
  id uuid PRIMARY KEY,
  series_id int NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  name text,                               -- null falls back to the series name
  image text,
  open_at timestamptz NOT NULL,
  standby_at timestamptz NOT NULL,
  complete_at timestamptz NOT NULL,
  synchronous boolean NOT NULL DEFAULT false,
  speed_bonus boolean NOT NULL DEFAULT false,
  scoring_claimed_at timestamptz,          -- set by the one process that scores the game
  scored_at timestamptz,                   -- scores written: the game is complete
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (open_at <= standby_at AND standby_at <= complete_at)
);
CREATE INDEX games_series ON games (series_id);
CREATE INDEX games_complete_at ON games (complete_at);

CREATE TABLE game_subcommunities (
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  community_id int NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
  PRIMARY KEY (game_id, community_id)
);

CREATE TABLE questions (
  id serial PRIMARY KEY,
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  i int NOT NULL,
  kind text NOT NULL CHECK (kind IN ('vote', 'guess', 'predict')),
  text text NOT NULL,
  image text,
  slider_min double precision,
  slider_max double precision,
  slider_step double precision,
  slider_unit text,
  linked_vote_i int,                       -- a guess question scored against this vote question
  outcome double precision,                -- a predict question's truth entered by a host; null: crowd median
  secs_to_answer int NOT NULL DEFAULT 20,
  UNIQUE (game_id, i),
  CHECK (kind <> 'predict' OR (slider_min IS NOT NULL AND slider_max > slider_min AND slider_step > 0))
);

CREATE TABLE choices (
  question_id int NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
  i int NOT NULL,
  text text NOT NULL,
  image text,
  PRIMARY KEY (question_id, i)
);

CREATE TABLE participations (
  id serial PRIMARY KEY,
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  user_id int NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  subcommunity_id int REFERENCES communities (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  score double precision,                  -- written once, when the game is scored
  rank int,
  percentile double precision,
  community_rank int,
  position int,                            -- 1..n order of the leaderboard: pages are position ranges
  UNIQUE (game_id, user_id)
);
CREATE INDEX participations_user ON participations (user_id);
CREATE INDEX participations_board ON participations (game_id, position);

CREATE TABLE answers (
  participation_id int NOT NULL REFERENCES participations (id) ON DELETE CASCADE,
  question_i int NOT NULL,
  choice_i int,
  number_answer double precision,
  answered_at timestamptz NOT NULL DEFAULT now(),
  points int,
  PRIMARY KEY (participation_id, question_i)
);
