-- Placeholder for version 4, which is the queue branch's V4__queue.sql (runs.owner, runs.priority):
-- migrations are numbered without gaps. When V4__queue.sql is in this folder, delete this file.
SELECT 1;
