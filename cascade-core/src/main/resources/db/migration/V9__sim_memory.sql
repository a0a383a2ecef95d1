-- Each sim's peak memory (issue 31): the largest resident memory (RSS) its process tree held, in
-- bytes, sampled while a local sim runs. Null where it was not measured: sims made before, sims of
-- launchers that do not measure it (Slurm, Sail), and sims that never ran.
ALTER TABLE sims ADD COLUMN peak_memory_bytes INTEGER CHECK (peak_memory_bytes IS NULL OR peak_memory_bytes >= 0);
