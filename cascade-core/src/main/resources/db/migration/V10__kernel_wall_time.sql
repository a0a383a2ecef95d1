-- Wall time per kernel (issue 31). The agent stamps each chunk with when it read the chunk's last
-- bytes from the simulator (the Cascade-Chunk-Read-At header); a chunk spooled while the app was
-- away arrives late, so a kernel's end is timed by the stamp of the chunk that finished it, or by
-- the chunk's arrival (received_at) for agents that send none. Null for chunks stored before.
ALTER TABLE chunks ADD COLUMN read_at TEXT;
-- When a kernel finished on the wall clock (its chunk's time, as above), and how long it took:
-- from the previous kernel's end, or from the sim's launch for its first kernel. Null for kernels
-- stored before this version, and wall_ms also where the start is not known.
ALTER TABLE sim_kernels ADD COLUMN finished_at TEXT;
ALTER TABLE sim_kernels ADD COLUMN wall_ms INTEGER CHECK (wall_ms IS NULL OR wall_ms >= 0);
