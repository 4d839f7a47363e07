-- Hosting (hosting spec §1-§5): hosts of communities, what a season file names, outcomes a host
-- enters later, voided questions, and the audit log of every host write.

-- Unlisted communities are left out of community search; everything existing stays listed.
ALTER TABLE communities ADD COLUMN listed boolean NOT NULL DEFAULT true;

-- A game's key is its identity in a season file, unique within its series, so importing a file
-- again finds the same game (and its uuid). Existing games take their uuid as their key.
ALTER TABLE games ADD COLUMN key text;
UPDATE games SET key = id::text;
ALTER TABLE games ALTER COLUMN key SET NOT NULL;
CREATE UNIQUE INDEX games_series_key ON games (series_id, key);

-- A predict's outcome: 'number' (given with the question), 'crowd' (the median of the answers) or
-- 'pending' (entered by a host after standby; `outcome` stays null until then). Before this, a
-- null outcome meant the crowd median.
ALTER TABLE questions ADD COLUMN outcome_kind text CHECK (outcome_kind IN ('number', 'crowd', 'pending'));
UPDATE questions SET outcome_kind = CASE WHEN outcome IS NULL THEN 'crowd' ELSE 'number' END WHERE kind = 'predict';
ALTER TABLE questions ADD CONSTRAINT questions_outcome_kind CHECK (
  (kind = 'predict') = (outcome_kind IS NOT NULL)
  AND (outcome_kind IS NOT NULL OR outcome IS NULL)
  AND (outcome_kind <> 'number' OR outcome IS NOT NULL)
  AND (outcome_kind <> 'crowd' OR outcome IS NULL)
);
-- A voided question scores 0 for everyone and shows as voided.
ALTER TABLE questions ADD COLUMN voided boolean NOT NULL DEFAULT false;

-- Hosts of a community, granted and revoked by admins (admins themselves come from ADMIN_USERS).
CREATE TABLE community_hosts (
  community_id int NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
  user_id int NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (community_id, user_id)
);
CREATE INDEX community_hosts_user ON community_hosts (user_id);

-- Every host write: who, when, in which community, what, with the old and new values.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id int REFERENCES users (id) ON DELETE SET NULL,
  actor text NOT NULL,                    -- the username then, or 'command line'
  community_id int REFERENCES communities (id) ON DELETE CASCADE,
  action text NOT NULL,                   -- 'game.created', 'host.granted', ...
  target text NOT NULL,                   -- what it acted on: an endpoint, 'series/key', a username
  old_value jsonb,
  new_value jsonb
);
CREATE INDEX audit_log_community ON audit_log (community_id, id);
