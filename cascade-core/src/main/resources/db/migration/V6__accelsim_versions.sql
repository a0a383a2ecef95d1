-- Which Accel-Sim produced a sim's log (issue 26): the versions its build lines name, beside the
-- build strings V5 keeps. Null for logs that named none and for sims made before.
ALTER TABLE sims ADD COLUMN accelsim_version TEXT;  -- a version on the "Accel-Sim ... [build ...]" line
ALTER TABLE sims ADD COLUMN gpgpusim_version TEXT;  -- "4.2.0" of "GPGPU-Sim Simulator Version 4.2.0"
