-- One game per series per start time: lets every process try to create the next demo live game
-- and only one succeed.
CREATE UNIQUE INDEX games_series_standby ON games (series_id, standby_at);
