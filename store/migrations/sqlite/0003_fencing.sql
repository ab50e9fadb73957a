-- qipai store, version 3 (SQLite): the same fencing columns and check as PostgreSQL's (one
-- SQLite file has one writer, so it never meets a stale owner; the schema stays the same).
ALTER TABLE rooms ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN skew_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE steps ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER steps_fence BEFORE INSERT ON steps
WHEN NEW.epoch < (SELECT epoch FROM rooms WHERE id = NEW.room)
BEGIN
    SELECT RAISE(ABORT, 'fenced: a step is below the room''s epoch');
END;
