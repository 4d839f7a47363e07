-- Accounts, sessions and communities.
CREATE TABLE app_secrets (
  name text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE category_groups (
  id serial PRIMARY KEY,
  name text,               -- null renders as 'Community Categories'
  position int NOT NULL DEFAULT 0
);

CREATE TABLE categories (
  id serial PRIMARY KEY,
  group_id int NOT NULL REFERENCES category_groups (id) ON DELETE CASCADE,
  name text NOT NULL UNIQUE,
  position int NOT NULL DEFAULT 0
);

CREATE TABLE communities (
  id serial PRIMARY KEY,
  endpoint text NOT NULL UNIQUE,
  name text NOT NULL,
  image text NOT NULL DEFAULT '_.jpg',
  description text NOT NULL DEFAULT '',
  kind text NOT NULL DEFAULT 'public' CHECK (kind IN ('public', 'geo')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE community_categories (
  community_id int NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
  category_id int NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  PRIMARY KEY (community_id, category_id)
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  username text NOT NULL,
  username_key text NOT NULL UNIQUE,      -- lower(username): usernames are case-insensitive
  email text NOT NULL,
  email_key text NOT NULL UNIQUE,         -- lower(email)
  password_hash text NOT NULL,            -- argon2id; '!' for demo players who cannot log in
  zipcode text NOT NULL,
  geo_community_id int REFERENCES communities (id) ON DELETE SET NULL,
  date_of_birth date NOT NULL,
  gender text,
  profile_img text,                       -- file under uploads/users; null means the default image
  is_private boolean NOT NULL DEFAULT false,
  is_admin boolean NOT NULL DEFAULT false,
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  user_id int NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  community_id int NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, community_id)
);
CREATE INDEX memberships_community ON memberships (community_id);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,            -- sha256 of the cookie value: a leaked table grants nothing
  user_id int NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE login_failures (
  id serial PRIMARY KEY,
  username_key text NOT NULL,
  ip text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_user ON login_failures (username_key, at);
CREATE INDEX login_failures_ip ON login_failures (ip, at);
