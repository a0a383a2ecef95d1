-- The queue: whose run it is (waiting sims start round-robin across owners) and its priority
-- (higher first). Runs made before keep the default owner and priority 0.
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT 'local';
ALTER TABLE runs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
-- Estimates read the earlier runs of the same trace.
CREATE INDEX runs_by_trace ON runs (trace_id, created_at);
