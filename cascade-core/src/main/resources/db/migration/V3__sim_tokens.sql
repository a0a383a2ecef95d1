-- Each sim's bearer tokens, as SHA-256 hashes only: a random token is made at each launch and given
-- to the sim alone, so nothing in the data dir lets anyone compute a sim's token. Every token a sim
-- was given stays valid for that sim (a relaunch after a crash may find the first launch's process
-- still running and reporting), and for no other.
CREATE TABLE sim_tokens (
  sim_id     TEXT NOT NULL REFERENCES sims (id),
  token_hash TEXT NOT NULL,
  PRIMARY KEY (sim_id, token_hash)
);
