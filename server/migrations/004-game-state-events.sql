-- Each state change of a game is announced once, by whichever process inserts its row first.
CREATE TABLE game_state_events (
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  state text NOT NULL,
  announced_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, state)
);
CREATE INDEX games_open_at ON games (open_at);
CREATE INDEX games_standby_at ON games (standby_at);
