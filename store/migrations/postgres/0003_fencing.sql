-- qipai store, version 3 (PostgreSQL): several nodes. A room's owner holds a lease
-- with an epoch; a node that takes a room over raises the room's epoch here before the rebuilt
-- room accepts anything, and a step written at a lower epoch (by a stale owner) is refused.
-- skew_ms: the time the room spent without an owner, kept off its clocks (see server/src/cluster).
ALTER TABLE rooms ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN skew_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE steps ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
-- FOR SHARE: a step waits for a takeover in flight (and a takeover for a step in flight), so
-- a step is either in the log the new owner reads or refused, never committed after it.
CREATE FUNCTION qipai_fence_step() RETURNS trigger AS $$
BEGIN
    IF NEW.epoch < (SELECT epoch FROM rooms WHERE id = NEW.room FOR SHARE) THEN
        RAISE EXCEPTION 'fenced: a step of room % at epoch % is below the room''s epoch',
            NEW.room, NEW.epoch USING ERRCODE = 'QF001';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER steps_fence BEFORE INSERT ON steps FOR EACH ROW EXECUTE FUNCTION qipai_fence_step();
