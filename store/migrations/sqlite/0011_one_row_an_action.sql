-- qipai store, version 11 (SQLite): one row an action.
-- `sent_ms`: the moment the room's last answers left (`Game::sent`), carried by the step that
-- follows instead of a row of its own (kind 6, still written when no step follows and still
-- replayed), so a closed-loop action writes one row, not two.
-- The fencing trigger goes: a SQLite file has one writer, one node (a node refuses
-- `[cluster]` with a SQLite store), so no stale owner can write below a room's epoch here;
-- the trigger only cost every insert a lookup in `rooms` and a statement journal.
-- PostgreSQL, shared by several nodes, keeps its own.
ALTER TABLE steps ADD COLUMN sent_ms INTEGER;
DROP TRIGGER IF EXISTS steps_fence;
