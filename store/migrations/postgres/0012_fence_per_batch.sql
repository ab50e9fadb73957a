-- qipai store, version 12 (PostgreSQL): the fence once a batch, not once a row. The writer
-- inserts a batch's steps in one statement and reads the batch's rooms FOR SHARE beside it,
-- refusing the whole batch when a step is below its room's epoch (store/src/postgres.rs,
-- `FENCE`): the same guarantee as the trigger (a takeover's row lock and the share lock
-- wait for each other, so a step is in the log the new owner reads or refused), without a
-- PL/pgSQL call, a lookup and a lock for every row.
DROP TRIGGER IF EXISTS steps_fence ON steps;
DROP FUNCTION IF EXISTS qipai_fence_step();
