-- qipai store, version 4 (SQLite): the steps become a log in commit order.
-- Under the key (room, idx) every step went to its own room's leaf of the key's index, so a
-- commit of N steps of N rooms wrote N whole pages to the WAL (about 6 KB an action at
-- thousands of tables). Now a step is appended at the end of the table: a commit writes a
-- few pages whatever the number of rooms. The log is read only at start-up, from the first
-- step of the oldest open room on (`rooms.log_from`, the log's last `seq` when the room was
-- created; AUTOINCREMENT never gives a `seq` twice, so every later step is above it). A
-- step index written twice is no longer refused here: the room's replay finds it out of
-- order and closes the room (server/src/room/actor/durable.rs).
ALTER TABLE steps RENAME TO steps_v3;
CREATE TABLE steps (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- commit order
    room INTEGER NOT NULL,
    idx INTEGER NOT NULL,           -- 0, 1, 2, … in the order the room took them
    kind INTEGER NOT NULL,          -- 0 start, 1 action, 2 deadline, 3 forfeit, 4 reseat
    seat INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,         -- the server's time line
    lag_ms INTEGER NOT NULL,
    action BLOB,                    -- the protocol's GameAction, MessagePack (kind 1)
    event_seq INTEGER NOT NULL,     -- the room's event sequence number before the step
    epoch INTEGER NOT NULL DEFAULT 0
);
INSERT INTO steps (room, idx, kind, seat, at_ms, lag_ms, action, event_seq, epoch)
    SELECT room, idx, kind, seat, at_ms, lag_ms, action, event_seq, epoch
    FROM steps_v3 ORDER BY room, idx;
DROP TABLE steps_v3;
CREATE TRIGGER steps_fence BEFORE INSERT ON steps
WHEN NEW.epoch < (SELECT epoch FROM rooms WHERE id = NEW.room)
BEGIN
    SELECT RAISE(ABORT, 'fenced: a step is below the room''s epoch');
END;
ALTER TABLE rooms ADD COLUMN log_from INTEGER NOT NULL DEFAULT 0;
-- The rooms open now: their steps were copied in room order, each room's after the last
-- (an index for the while, so that this is not a scan of the log per room).
CREATE INDEX steps_v4_room ON steps (room);
UPDATE rooms SET log_from = COALESCE(
    (SELECT MIN(seq) - 1 FROM steps WHERE steps.room = rooms.id),
    (SELECT COALESCE(MAX(seq), 0) FROM steps))
WHERE status = 'open';
DROP INDEX steps_v4_room;
CREATE TRIGGER rooms_log_from AFTER INSERT ON rooms
BEGIN
    UPDATE rooms SET log_from = (SELECT COALESCE(MAX(seq), 0) FROM steps) WHERE id = NEW.id;
END;
