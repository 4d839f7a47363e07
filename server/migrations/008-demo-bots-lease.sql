-- Demo bots are held like the game's driver: a lease the holder renews, so another process (or
-- the same server restarted) brings them back when their process dies mid-game.
ALTER TABLE live_games ADD COLUMN bots_until timestamptz;
