-- Cascade's first schema. Times are ISO-8601 UTC instants as text with all nine fraction digits
-- (2026-11-07T12:00:00.120000000Z): fixed width, so text order is time order.

CREATE TABLE traces (
  id                   TEXT PRIMARY KEY,
  state                TEXT NOT NULL CHECK (state IN ('uploading', 'processing', 'ready', 'failed')),
  reason               TEXT,
  trace_gpu_arch       TEXT NOT NULL,
  suggested_sim_config TEXT,
  model_name           TEXT,
  traced_layers        TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
  kernel_count         INTEGER NOT NULL DEFAULT 0,
  kernels              TEXT NOT NULL DEFAULT '[]',  -- JSON array of per-kernel facts
  size_bytes           INTEGER NOT NULL DEFAULT 0,
  sample               INTEGER NOT NULL DEFAULT 0,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL
);

CREATE TABLE runs (
  id         TEXT PRIMARY KEY,
  trace_id   TEXT NOT NULL,
  entries    TEXT NOT NULL,  -- JSON array of {"gpu_config", "count"}, in request order
  created_at TEXT NOT NULL
);
CREATE INDEX runs_by_created ON runs (created_at, id);

CREATE TABLE sims (
  id                TEXT PRIMARY KEY,
  run_id            TEXT NOT NULL REFERENCES runs (id),
  gpu_config        TEXT NOT NULL,
  replica           INTEGER NOT NULL,
  state             TEXT NOT NULL CHECK (state IN
                      ('pending', 'launching', 'running', 'lost', 'succeeded', 'failed', 'cancelled')),
  launcher_name     TEXT,
  launcher_ref      TEXT,
  error             TEXT,
  exit_code         INTEGER,
  created_at        TEXT NOT NULL,
  launched_at       TEXT,
  last_heartbeat_at TEXT,
  finished_at       TEXT,
  -- What the sim's output says so far, kept as chunks are parsed in order.
  chunks_parsed     INTEGER NOT NULL DEFAULT 0,   -- chunks 0..n-1 have been fed to the parser
  kernels_done      INTEGER NOT NULL DEFAULT 0,
  kernels_total     INTEGER NOT NULL DEFAULT 0,   -- the trace's kernel count when the run was made
  current_kernel    TEXT,
  latest_metrics    TEXT,                         -- JSON object of the last kernel's headline numbers
  log_outcome       TEXT,                         -- complete, not_final, failed, incomplete; null while running
  UNIQUE (run_id, gpu_config, replica)
);
-- UNIQUE (run_id, ...) above already indexes sims by run.
CREATE INDEX sims_by_state ON sims (state);

CREATE TABLE chunks (
  sim_id      TEXT NOT NULL REFERENCES sims (id),
  seq         INTEGER NOT NULL CHECK (seq >= 0),
  bytes       BLOB NOT NULL,
  received_at TEXT NOT NULL,
  PRIMARY KEY (sim_id, seq)
);
-- A rowid table on purpose: chunks are kilobytes, and WITHOUT ROWID suits small rows only. The
-- primary key's own index then covers the count, gap and missing-seq queries without the bytes.

-- One row per kernel statistics block a sim printed, in log order.
CREATE TABLE sim_kernels (
  sim_id       TEXT NOT NULL REFERENCES sims (id),
  position     INTEGER NOT NULL CHECK (position >= 0),
  name         TEXT NOT NULL,
  uid          INTEGER NOT NULL,
  instance     INTEGER NOT NULL,
  cycles       INTEGER NOT NULL,
  instructions INTEGER NOT NULL,
  ipc          REAL NOT NULL,
  stats        TEXT NOT NULL,  -- JSON object: every numeric key = value of the block
  PRIMARY KEY (sim_id, position)
);

-- Every change of a sim, in order, so a client that reconnects resumes from the last id it saw.
CREATE TABLE events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id     TEXT NOT NULL,
  sim_id     TEXT,
  kind       TEXT NOT NULL,
  data       TEXT NOT NULL,  -- JSON
  created_at TEXT NOT NULL
);
CREATE INDEX events_by_run ON events (run_id, id);
