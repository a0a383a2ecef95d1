-- Each sim's bearer token, as a SHA-256 hash only: a random token is made at each launch and given
-- to the sim alone, so nothing in the data dir lets anyone compute another sim's token.
CREATE TABLE sim_tokens (
  sim_id     TEXT PRIMARY KEY REFERENCES sims (id),
  token_hash TEXT NOT NULL
);
