-- Provenance, attempts, kernel windows and failure classes of sims (issue 16).
-- A retry adds a new sim row per attempt, so the one-sim-per-config-and-replica constraint of V1
-- becomes one per attempt. SQLite cannot change a table constraint in place, so the rows are
-- copied aside, the table made again and the rows copied back. A rename would rewrite the foreign
-- keys of chunks and sim_kernels to the old table; instead they are deferred to the commit, by
-- which time every sim they point at is back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE sims_v1 AS SELECT * FROM main.sims;
DROP TABLE main.sims;

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
  chunks_parsed     INTEGER NOT NULL DEFAULT 0,
  kernels_done      INTEGER NOT NULL DEFAULT 0,
  kernels_total     INTEGER NOT NULL DEFAULT 0,
  current_kernel    TEXT,
  latest_metrics    TEXT,
  log_outcome       TEXT,
  attempt           INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),  -- a retry adds the next one
  kernel_window     TEXT,            -- "2-3": trace kernel positions from 1; null: every kernel
  failure_class     TEXT,            -- deadlock, segfault, ...; null unless failed
  trace_hash        TEXT,            -- sha256:... of kernelslist.g and the kernel files it lists
  config_hash       TEXT,            -- sha256:... of gpgpusim.config and trace.config
  simulator         TEXT,            -- the emulator's version or sha256:... of the binary
  accelsim_build    TEXT,            -- from the log's "Accel-Sim [build ...]"
  gpgpusim_build    TEXT,            -- from the log's "GPGPU-Sim ... [build ...]"
  reused_from       TEXT,            -- the earlier sim whose results this one took
  UNIQUE (run_id, gpu_config, replica, attempt)
);

INSERT INTO sims (id, run_id, gpu_config, replica, state, launcher_name, launcher_ref, error,
                  exit_code, created_at, launched_at, last_heartbeat_at, finished_at,
                  chunks_parsed, kernels_done, kernels_total, current_kernel, latest_metrics,
                  log_outcome)
  SELECT id, run_id, gpu_config, replica, state, launcher_name, launcher_ref, error, exit_code,
         created_at, launched_at, last_heartbeat_at, finished_at, chunks_parsed, kernels_done,
         kernels_total, current_kernel, latest_metrics, log_outcome
  FROM temp.sims_v1;
DROP TABLE temp.sims_v1;

CREATE INDEX sims_by_state ON sims (state);
-- What reuse looks up: an earlier succeeded sim of the same inputs.
CREATE INDEX sims_by_inputs ON sims (trace_hash, config_hash, simulator, replica);
