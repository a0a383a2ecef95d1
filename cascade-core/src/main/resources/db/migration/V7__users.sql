-- The users of a shared server (issue 28): a name (the owner of the runs they create), a role, and
-- their token as a SHA-256 hash only; a token is shown once when the user is added. Revoking keeps
-- the row, with who revoked it and when, so the list tells who did what.
CREATE TABLE users (
  name       TEXT PRIMARY KEY,
  role       TEXT NOT NULL CHECK (role IN ('viewer', 'submitter', 'admin')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  expires_at TEXT,            -- null: the token never expires
  revoked_at TEXT,
  revoked_by TEXT
);
