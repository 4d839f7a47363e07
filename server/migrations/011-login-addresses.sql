-- The addresses (an IPv6 client's /64) each account last logged in from, at most 10 of them:
-- the account-wide login delay does not apply there, so attackers guessing from elsewhere cannot
-- take every attempt and keep the owner out (decision 016). Gone with the account.
CREATE TABLE login_addresses (
  user_id int NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip text NOT NULL,
  last_login_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, ip)
);
