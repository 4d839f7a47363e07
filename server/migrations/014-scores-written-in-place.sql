-- Scoring writes the figures of every entry of a game (score, rank, percentile, community rank,
-- position), a million rows for a big game (decision 024). With an index on one of them each new
-- row version needs an entry in every index of participations; with none, and room on its page,
-- it stays there without any (a HOT update): 2.05 against 12.3 s of CPU for a million entries.

-- Leaderboard pages find positions through this instead of an index on participations: per game,
-- its entries in board order, 100 positions to a row, so a page is one or two rows and a million
-- entries 10,000 rows to write. A row holds the entries whose positions fall in its range
-- (board_chunk); an entry deleted since (its player left the community) is simply not found.
-- Scoring writes them with the positions; participations.position stays what pages show.
CREATE FUNCTION board_chunk(pos int) RETURNS int
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS 'SELECT (pos - 1) / 100';

CREATE TABLE leaderboard_chunks (
  game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  chunk int NOT NULL,                      -- board_chunk of its entries' positions
  entries int[] NOT NULL,                  -- participation ids, in position order
  PRIMARY KEY (game_id, chunk)
);

INSERT INTO leaderboard_chunks (game_id, chunk, entries)
SELECT game_id, board_chunk(position), array_agg(id ORDER BY position)
  FROM participations WHERE position IS NOT NULL
 GROUP BY game_id, board_chunk(position);

-- How many players a game ranks (the N of 'rank r of N'): scoring numbers the entries 1..n, so
-- it is the largest position still held, read from the last chunk that holds an entry (players
-- who left are gone) rather than by counting a big game's entries. Null before scoring.
CREATE FUNCTION board_size(uuid) RETURNS int
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
    SELECT m.n FROM leaderboard_chunks b
     CROSS JOIN LATERAL (SELECT max(p.position) AS n FROM participations p
                          WHERE p.id = ANY (b.entries) AND p.game_id = $1) m
     WHERE b.game_id = $1 AND m.n IS NOT NULL
     ORDER BY b.chunk DESC LIMIT 1
  $$;

DROP INDEX participations_board;

-- Room on its page for each entry's next version: an entry takes 68 bytes before scoring and 100
-- after (with its line pointer), 104 once a re-scoring has left a redirect. Filled to 30%, a page
-- holds 35 entries, and room for all of their new versions at the first scoring and at each
-- re-scoring (at 40%, 47 entries, all at the first, 68% at a re-scoring). New entries only: the
-- pages written before keep theirs until rewritten.
ALTER TABLE participations SET (fillfactor = 30);
