-- What the GPU measured for a trace's kernels: a Nsight Compute CSV (ncu --csv --page raw) given
-- to PUT /api/traces/{id}/hardware, kept whole so it reads back exactly as it was sent.
CREATE TABLE trace_hardware (
  trace_id     TEXT PRIMARY KEY REFERENCES traces (id) ON DELETE CASCADE,
  source       TEXT NOT NULL,
  csv          TEXT NOT NULL,
  received_at  TEXT NOT NULL
);
