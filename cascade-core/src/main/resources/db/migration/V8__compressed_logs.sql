-- Logs compressed at rest (issue 31). A chunk's bytes are kept as its codec says: 'raw' (every
-- chunk stored before this version) or 'zstd' (one zstd frame of the chunk's bytes); size is the
-- chunk's length before compression (null for raw chunks: length(bytes) is it). A kernel's
-- statistics column holds either the JSON text (before this version) or a zstd frame of it as a
-- BLOB; readers take both, so no row is rewritten.
ALTER TABLE chunks ADD COLUMN codec TEXT NOT NULL DEFAULT 'raw' CHECK (codec IN ('raw', 'zstd'));
ALTER TABLE chunks ADD COLUMN size INTEGER CHECK (size IS NULL OR size >= 0);
-- When retention (or cascade gc) dropped the sim's log; its results stay.
ALTER TABLE sims ADD COLUMN log_dropped_at TEXT;
