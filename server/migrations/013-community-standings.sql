-- Community rank (/api/community_rank, DESIGN §2) kept up to date instead of summed per request
-- (decision 024): a player's total over the scored games of a community, and how many players of
-- the community stand at each total, so a rank is one row plus a scan of the distinct totals.
-- Written in the same transactions as what changes them: scoring and re-scoring a game
-- (games/scoring.ts) and leaving a community (communities/membership.ts), each under the
-- transaction-scoped advisory lock (72410201, community id), so they never interleave.

-- One row per player who has a scored entry in a game of the community's series. No foreign keys:
-- checked row by row they took two thirds of the time of moving a million players at scoring. No
-- path deletes users or communities; one that comes must delete their standings and counts too.
CREATE TABLE community_standings (
  community_id int NOT NULL,
  user_id int NOT NULL,
  score double precision NOT NULL,         -- sum of their scores in the community's scored games
  games int NOT NULL CHECK (games > 0),    -- how many of those games they played
  PRIMARY KEY (community_id, user_id)
) WITH (fillfactor = 50);                  -- each scoring rewrites every player's row: room on its
                                           -- page keeps the new version there (a HOT update, no
                                           -- new index entry)

-- How many players of the community have each total: rank = 1 + players above, percentile from
-- players below. Rows whose count reaches 0 are deleted by the statement after the change. (No
-- CHECK on players: an upsert's decrement is checked as a row to insert before it meets its row.)
CREATE TABLE community_score_counts (
  community_id int NOT NULL,
  score double precision NOT NULL,
  players int NOT NULL,
  PRIMARY KEY (community_id, score)
);

INSERT INTO community_standings (community_id, user_id, score, games)
SELECT se.community_id, p.user_id, sum(p.score), count(*)
  FROM participations p
  JOIN games g ON g.id = p.game_id
  JOIN series se ON se.id = g.series_id
 WHERE g.scored_at IS NOT NULL AND p.score IS NOT NULL
 GROUP BY se.community_id, p.user_id;

INSERT INTO community_score_counts (community_id, score, players)
SELECT community_id, score, count(*) FROM community_standings GROUP BY community_id, score;

-- Scoring sums each answer's points where it reads them, set-based, and stores none (decision
-- 024): nothing ever read them, and writing a row per answer was most of the time of scoring a
-- game of millions of answers. They stay what they were, a function of the answer and its
-- question's truth (games/scoring-sql.ts answerPoints).
ALTER TABLE answers DROP COLUMN points;
